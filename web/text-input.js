// Text reaches the lab the way the operating system gives it. The canvas is not a text field, so
// input methods (Chinese pinyin, the emoji picker, dictation, on-screen keyboards) and the system
// clipboard cannot reach it. While an ImGui text field is active, a hidden <input> holds the focus
// and forwards what the browser inserts into it: committed compositions, insertText, pastes.
// Keys still bubble to SDL's window listeners (Backspace, arrows, Enter, Ctrl+A/C/X/Z reach ImGui),
// except that characters arrive only once, from here: SDL's keypress text is stopped at the input.
'use strict';
(function () {
  const input = document.createElement('input');
  input.type = 'text';
  input.autocapitalize = 'off';
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('autocorrect', 'off');
  input.setAttribute('spellcheck', 'false');
  input.setAttribute('aria-label', 'Text for the active field of the lab');
  input.dataset.textLabel = 'text_input_label';  // page-text.js says it in the page's language
  input.className = 'text-bridge';
  document.addEventListener('DOMContentLoaded', () => document.body.appendChild(input));

  const call = (name, text) => {
    if (text && window.Module && Module.calledRun) window.headlab._callWithString(name, text);
  };
  const send = (text) => call('headlab_text_input', text);
  // Whatever the browser put into the input, once: a typed character, a committed composition, an
  // inserted emoji. During a composition the text is not final; compositionend commits it.
  const flush = () => {
    const text = input.value;
    input.value = '';
    send(text);
  };
  input.addEventListener('input', (e) => { if (!e.isComposing) flush(); });
  input.addEventListener('compositionend', flush);
  input.addEventListener('keypress', (e) => e.stopPropagation());
  input.addEventListener('keydown', (e) => {
    // Paste is the browser's: it reads the system clipboard and fires 'paste' below. SDL must not
    // see the key (ImGui would paste its own clipboard too).
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'v') e.stopPropagation();
  });
  input.addEventListener('paste', (e) => {
    e.preventDefault();
    call('headlab_paste', e.clipboardData ? e.clipboardData.getData('text/plain') : '');
  });

  // Called by the module when ImGui starts or stops wanting text (src/platform/main.cpp).
  window.headlabTextInput = (active) => {
    if (active) {
      if (document.activeElement !== input) input.focus({ preventScroll: true });
    } else if (document.activeElement === input) {
      input.blur();
      const canvas = document.getElementById('canvas');
      if (canvas) canvas.focus({ preventScroll: true });
    }
  };
  // ImGui's copy and cut write to the system clipboard too (within the key press's user activation).
  window.headlabCopyText = (text) => {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(() => {});
  };
})();
