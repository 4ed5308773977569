// The lab for screen readers and the keyboard: what the canvas shows a sighted learner, as
// headings, paragraphs, lists and (on request) a table, in the learner's language, with real
// buttons for what a lesson asks (start a lesson, Back, Hint, Show me, Next; the head count, the
// selected head and its preset), each sending the same request as the canvas's control. The module
// sends a new view whenever it changes (src/ui/accessible_view.cpp); the elements stay and only
// their text changes, so a screen reader keeps its place. The panel is first in the Tab order and
// visually hidden until it holds the keyboard focus.
'use strict';
(function () {
  let root = null;
  const parts = {};
  let tableOpen = false;
  let view = null;
  // Set by a button that moves to another step: once the view shows that step, the focus goes to
  // its title, so a screen reader reads the new step instead of falling back to the page.
  let focusStepOnUpdate = false;

  const make = (tag, parent, attributes = {}) => {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    parent.appendChild(element);
    return element;
  };
  const fillList = (list, items) => {
    list.replaceChildren(...items.map((item) => { const li = document.createElement('li'); li.textContent = item; return li; }));
    list.hidden = items.length === 0;
  };
  // A request to the lab; a refusal is shown as the lab's notice, which this panel reads.
  const send = (request) => {
    try {
      request();
      return true;
    } catch (error) {
      window.headlab.notify(String(error.message || error), 'error');
      return false;
    }
  };
  const toStep = (request) => {
    focusStepOnUpdate = send(request);
  };
  const button = (parent, onPress, attributes = {}) => {
    const element = make('button', parent, { type: 'button', ...attributes });
    element.addEventListener('click', () => { if (element.getAttribute('aria-disabled') !== 'true') onPress(); });
    return element;
  };
  // Disabled but still focusable, so Tab does not skip it and a screen reader says why it waits.
  const enable = (element, on) => element.setAttribute('aria-disabled', String(!on));
  // Options of a <select>, kept when unchanged so the focus and the value stay put.
  const fillSelect = (select, options, selected) => {
    const key = JSON.stringify(options);
    if (select.dataset.key !== key) {
      select.replaceChildren(...options.map(([value, text]) => {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = text;
        return option;
      }));
      select.dataset.key = key;
    }
    if (selected !== undefined) select.value = selected;
  };

  function build() {
    root = document.getElementById('a11y');
    // Keys pressed in the panel are the panel's (Enter on a button, arrows in the table): SDL,
    // listening on the window, would take them for the lab and cancel their default action.
    for (const type of ['keydown', 'keyup', 'keypress']) root.addEventListener(type, (e) => e.stopPropagation());
    // Outside a lesson, the way in comes first.
    parts.startFirst = button(root, () => toStep(() => window.headlab.startLesson(0)), { id: 'a11y-start-first' });
    const lesson = make('section', root, { 'aria-labelledby': 'a11y-lesson-title' });
    parts.lesson = lesson;
    parts.lessonTitle = make('h2', lesson, { id: 'a11y-lesson-title' });
    parts.position = make('p', lesson);
    parts.stepTitle = make('h3', lesson, { tabindex: '-1', id: 'a11y-step-title' });
    parts.text = make('p', lesson);
    parts.goalHeading = make('h3', lesson);
    parts.goal = make('p', lesson);
    parts.goalStatus = make('p', lesson);
    parts.numbers = make('ul', lesson);
    parts.hintsHeading = make('h3', lesson);
    parts.hints = make('ul', lesson);
    const steps = make('div', lesson, { role: 'group' });
    parts.back = button(steps, () => toStep(() => window.headlab.previousStep()), { id: 'a11y-back' });
    parts.reset = button(steps, () => send(() => window.headlab.resetStep()), { id: 'a11y-reset' });
    parts.hint = button(steps, () => send(() => window.headlab.hint()), { id: 'a11y-hint' });
    parts.showMe = button(steps, () => send(() => window.headlab.showMe()), { id: 'a11y-show-me' });
    parts.next = button(steps, () => toStep(() => window.headlab.nextStep()), { id: 'a11y-next' });
    // The heads: what lesson 1 asks for, without a mouse.
    const controls = make('section', root, { 'aria-labelledby': 'a11y-controls-title' });
    parts.controlsTitle = make('h2', controls, { id: 'a11y-controls-title' });
    parts.headCount = make('p', controls, { id: 'a11y-head-count' });
    parts.fewerHeads = button(controls, () => send(() => window.headlab.setHeadCount(view.controls.head_count - 1, view.controls.layer)),
                              { id: 'a11y-fewer-heads' });
    parts.moreHeads = button(controls, () => send(() => window.headlab.setHeadCount(view.controls.head_count + 1, view.controls.layer)),
                             { id: 'a11y-more-heads' });
    const headField = make('p', controls);
    parts.headSelectLabel = make('label', headField, { for: 'a11y-select-head' });
    parts.headSelect = make('select', headField, { id: 'a11y-select-head' });
    parts.headSelect.addEventListener('change', () => {
      const [layer, head] = parts.headSelect.value.split('/').map(Number);
      send(() => window.headlab.selectHead(layer, head));
    });
    const presetField = make('p', controls);
    parts.presetLabel = make('label', presetField, { for: 'a11y-preset' });
    parts.preset = make('select', presetField, { id: 'a11y-preset' });
    parts.applyPreset = button(presetField, () => {
      // The head the panel's list shows selected (the lab's own selection follows that list; state()
      // would serialize every weight).
      const [layer, head] = parts.headSelect.value.split('/').map(Number);
      send(() => window.headlab.applyPreset(layer, head, parts.preset.value));
    }, { id: 'a11y-apply-preset' });
    const head = make('section', root, { 'aria-labelledby': 'a11y-head-title' });
    parts.headTitle = make('h2', head, { id: 'a11y-head-title' });
    parts.label = make('p', head);
    parts.explanation = make('p', head);
    parts.scoresHeading = make('h3', head);
    parts.scores = make('ul', head);
    parts.tableButton = make('button', head, { type: 'button', id: 'a11y-table-button' });
    parts.tableButton.addEventListener('click', () => { tableOpen = !tableOpen; renderTable(); });
    parts.table = make('div', head, { id: 'a11y-table' });
    // Every lesson, to start from the keyboard.
    const list = make('nav', root, { 'aria-labelledby': 'a11y-lessons-title' });
    parts.lessonsTitle = make('h2', list, { id: 'a11y-lessons-title' });
    parts.lessons = make('ul', list, { id: 'a11y-lessons' });
    const notices = make('section', root, { 'aria-labelledby': 'a11y-notices-title' });
    parts.noticesTitle = make('h2', notices, { id: 'a11y-notices-title' });
    parts.notices = make('ul', notices);
  }

  // One button per lesson ("Start 3. Reading a heatmap"); rebuilt only when a title changes, so the
  // focused button stays.
  function renderLessons(lessons, start) {
    const key = JSON.stringify([lessons, start]);
    if (parts.lessons.dataset.key === key) return;
    parts.lessons.dataset.key = key;
    parts.lessons.replaceChildren(...lessons.map((lesson, i) => {
      const li = document.createElement('li');
      const b = button(li, () => toStep(() => window.headlab.startLesson(i)), { id: `a11y-lesson-${i}` });
      b.textContent = `${start} ${lesson.title}${lesson.done ? ' \u2713' : ''}`;
      return li;
    }));
  }

  // The selected head's attention: a row per query token, a column per key token, two decimals.
  function renderTable() {
    parts.tableButton.setAttribute('aria-expanded', String(tableOpen));
    if (!tableOpen || !window.Module || !Module.calledRun) { parts.table.replaceChildren(); return; }
    const state = window.headlab.state();
    const { layer, head } = state.selection;
    const attention = state.layers[layer].heads[head].attention;
    const table = document.createElement('table');
    const caption = make('caption', table);
    caption.textContent = `${view.headings.table}: ${view.head.title}`;
    const headerRow = make('tr', make('thead', table));
    make('td', headerRow);
    for (const token of state.tokens) make('th', headerRow, { scope: 'col' }).textContent = token;
    const body = make('tbody', table);
    attention.forEach((row, i) => {
      const tr = make('tr', body);
      make('th', tr, { scope: 'row' }).textContent = state.tokens[i];
      for (const value of row) make('td', tr).textContent = value.toFixed(2);
    });
    parts.table.replaceChildren(table);
  }

  // Tab from the page itself (nothing focused yet, as on arrival) moves into this panel, as on any
  // page; SDL, listening on the window, would take the key for the canvas's own navigation. On the
  // canvas (focused by a click) Tab stays the lab's.
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || !root) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    e.stopPropagation();
  }, true);

  // F6 moves the keyboard between the canvas (where Tab moves through the lab's controls) and this
  // panel, as it moves between the regions of a browser window; Escape goes back to the canvas.
  window.addEventListener('keydown', (e) => {
    if (!root || (e.key !== 'F6' && !(e.key === 'Escape' && root.contains(document.activeElement)))) return;
    e.preventDefault();
    e.stopPropagation();
    if (root.contains(document.activeElement) || e.key === 'Escape') document.getElementById('canvas').focus();
    else parts.tableButton.focus();
  }, true);

  window.headlabAccessibleView = (json) => {
    if (!root) build();
    view = JSON.parse(json);
    root.lang = view.lang;
    const h = view.headings;
    const lesson = view.lesson;
    parts.lesson.hidden = !lesson;
    const b = view.buttons;
    parts.startFirst.hidden = !!lesson || view.lessons.length === 0;
    if (view.lessons.length > 0) parts.startFirst.textContent = `${b.start} ${view.lessons[0].title}`;
    if (lesson) {
      parts.back.textContent = b.back;
      enable(parts.back, lesson.can_go_back);
      parts.reset.textContent = b.reset;
      parts.hint.textContent = b.hint;
      enable(parts.hint, lesson.hints_left);
      parts.showMe.textContent = b.show_me;
      parts.next.textContent = b.next;
      enable(parts.next, lesson.can_go_on);
      parts.lessonTitle.textContent = `${h.lesson}: ${lesson.title}`;
      parts.position.textContent = lesson.position;
      parts.stepTitle.textContent = lesson.step_title;
      parts.text.textContent = lesson.text;
      parts.goalHeading.textContent = h.goal;
      parts.goal.textContent = lesson.goal;
      parts.goalStatus.textContent = lesson.goal_status;
      fillList(parts.numbers, lesson.numbers);
      parts.hintsHeading.textContent = h.hints;
      parts.hintsHeading.hidden = lesson.hints.length === 0;
      fillList(parts.hints, lesson.hints);
    }
    const c = view.controls;
    parts.controlsTitle.textContent = h.controls;
    parts.headCount.textContent = c.head_count_text;
    parts.fewerHeads.textContent = b.fewer_heads;
    enable(parts.fewerHeads, c.head_count > 1);
    parts.moreHeads.textContent = b.more_heads;
    enable(parts.moreHeads, c.head_count < c.max_heads);
    parts.headSelectLabel.textContent = b.select_head;
    fillSelect(parts.headSelect, c.heads.map((x) => [`${x.layer}/${x.head}`, x.text]));
    parts.headSelect.value = `${c.selected.layer}/${c.selected.head}`;
    parts.presetLabel.textContent = b.preset;
    fillSelect(parts.preset, c.presets.map((x) => [x.id, x.name]));
    parts.applyPreset.textContent = b.apply_preset;
    parts.lessonsTitle.textContent = h.lessons;
    renderLessons(view.lessons, b.start);
    parts.headTitle.textContent = `${h.head}: ${view.head.title}`;
    parts.label.textContent = view.head.label || '';
    parts.explanation.textContent = view.head.explanation || '';
    parts.scoresHeading.textContent = h.scores;
    fillList(parts.scores, view.head.scores || []);
    parts.tableButton.textContent = h.table;
    parts.noticesTitle.textContent = h.notices;
    fillList(parts.notices, view.notices);
    if (tableOpen) renderTable();
    if (focusStepOnUpdate && lesson) {
      focusStepOnUpdate = false;
      parts.stepTitle.focus();
    }
  };
})();
