// On touch devices the canvas cannot summon the on-screen keyboard. When an ImGui text field is
// active we focus a hidden <input>, and forward what is typed into it to the wasm module.
'use strict';
(function () {
  const touch = 'ontouchstart' in window || navigator.maxTouchPoints > 0;
  const input = document.createElement('input');
  input.type = 'text';
  input.autocapitalize = 'off';
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('aria-hidden', 'true');
  input.className = 'touch-input';
  document.addEventListener('DOMContentLoaded', () => document.body.appendChild(input));
  input.addEventListener('input', () => {
    if (input.value && window.Module && Module.calledRun) window.headlab._callWithString('headlab_text_input', input.value);
    input.value = '';
  });
  window.headlabTouchKeyboard = (active) => {
    if (!touch) return;
    if (active) input.focus({ preventScroll: true });
    else input.blur();
  };
})();
