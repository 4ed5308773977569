// The lab for screen readers: what the canvas shows a sighted learner, as headings, paragraphs,
// lists and (on request) a table, in the learner's language. The module sends a new view whenever
// it changes (src/ui/accessible_view.cpp); the elements stay and only their text changes, so a
// screen reader keeps its place. The panel is visually hidden until it holds the keyboard focus.
'use strict';
(function () {
  let root = null;
  const parts = {};
  let tableOpen = false;
  let view = null;

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

  function build() {
    root = document.getElementById('a11y');
    // Keys pressed in the panel are the panel's (Enter on a button, arrows in the table): SDL,
    // listening on the window, would take them for the lab and cancel their default action.
    for (const type of ['keydown', 'keyup', 'keypress']) root.addEventListener(type, (e) => e.stopPropagation());
    const lesson = make('section', root, { 'aria-labelledby': 'a11y-lesson-title' });
    parts.lesson = lesson;
    parts.lessonTitle = make('h2', lesson, { id: 'a11y-lesson-title' });
    parts.position = make('p', lesson);
    parts.stepTitle = make('h3', lesson);
    parts.text = make('p', lesson);
    parts.goalHeading = make('h3', lesson);
    parts.goal = make('p', lesson);
    parts.goalStatus = make('p', lesson);
    parts.numbers = make('ul', lesson);
    parts.hintsHeading = make('h3', lesson);
    parts.hints = make('ul', lesson);
    const head = make('section', root, { 'aria-labelledby': 'a11y-head-title' });
    parts.headTitle = make('h2', head, { id: 'a11y-head-title' });
    parts.label = make('p', head);
    parts.explanation = make('p', head);
    parts.scoresHeading = make('h3', head);
    parts.scores = make('ul', head);
    parts.tableButton = make('button', head, { type: 'button', id: 'a11y-table-button' });
    parts.tableButton.addEventListener('click', () => { tableOpen = !tableOpen; renderTable(); });
    parts.table = make('div', head, { id: 'a11y-table' });
    const notices = make('section', root, { 'aria-labelledby': 'a11y-notices-title' });
    parts.noticesTitle = make('h2', notices, { id: 'a11y-notices-title' });
    parts.notices = make('ul', notices);
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
    if (lesson) {
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
    parts.headTitle.textContent = `${h.head}: ${view.head.title}`;
    parts.label.textContent = view.head.label || '';
    parts.explanation.textContent = view.head.explanation || '';
    parts.scoresHeading.textContent = h.scores;
    fillList(parts.scores, view.head.scores || []);
    parts.tableButton.textContent = h.table;
    parts.noticesTitle.textContent = h.notices;
    fillList(parts.notices, view.notices);
    if (tableOpen) renderTable();
  };
})();
