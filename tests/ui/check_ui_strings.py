#!/usr/bin/python3
"""Every word the lab shows comes from the string table, in both languages.

usage: check_ui_strings.py SRC_UI_DIR UI_TEXT_JSON
1. Every key the UI code asks for (tr("key"), t("key"), text.get("key", ...)) exists in
   assets/ui_text.json with an English and a Chinese text.
2. No widget is handed English words directly: the string literals passed to ImGui's text, button,
   tooltip and menu functions (and the lab's own widgets) may hold only ids ("##..."), printf
   conversions, digits, symbols and the notation both languages share (W_Q, d_k, L0H1, softmax).
Prints each offence as file:line and exits 1 when there is any.
"""
import json
import pathlib
import re
import sys

DISPLAY_CALLS = (
    "Text", "TextDisabled", "TextWrapped", "TextUnformatted", "TextColored", "BulletText", "LabelText",
    "Button", "SmallButton", "Checkbox", "RadioButton", "Selectable", "MenuItem", "BeginMenu",
    "BeginTabItem", "CollapsingHeader", "TreeNode", "SeparatorText", "SetTooltip", "Begin",
    "BeginCombo", "Combo", "SliderFloat", "SliderInt", "DragFloat", "DragInt", "InputInt", "InputFloat",
    "InputText", "InputTextWithHint", "ProgressBar", "PlotLines", "value_slider_int", "value_slider_float",
    "item_tooltip", "help_marker", "fit_text", "badge", "emit_notice", "notify", "caption_text",
)
KEY_CALLS = re.compile(r'\b(?:tr|t|words|text\.get|ui_text\.get)\(\s*"([^"]+)"')
# Notation shared by both languages: matrix and dimension names, head ids, maths and file types.
NOTATION = re.compile(
    r'\bW_[QKVO]\^?T?|\b[QKVAZX]_?[ih0-9]?\b|\bd_(?:model|k|v)\b|L%dH%d|L\d+H\d+|H%d|L%d|softmax|sqrt|Concat|\bQK\b|\bOV\b|'
    r'HeadLab|\bPNG\b|\bJSON\b|\bCSV\b|\bSVG\b|\[CLS\]|\[SEP\]|Ctrl|Shift|Alt|Esc|Enter|F6|\bOK\b|\bEN\b|nats?\b|'
    r'%[-+ #0]*\d*(?:\.\d+)?(?:ll|l|z|h)?[diufgesxc%]')
WORD = re.compile(r'[A-Za-z]{2,}')
PHRASE = re.compile(r'[A-Za-z]{2,}[,:;.?!]?\s+[A-Za-z]{2,}')  # two words: text for a reader, not an id


def literal_end(code: str, i: int) -> int:
    """The index just past the string or character literal that starts at code[i] (a quote)."""
    quote, j, n = code[i], i + 1, len(code)
    while j < n and code[j] != quote:
        j += 2 if code[j] == '\\' else 1
    return j + 1


def strip_comments(code: str) -> str:
    out, i, n = [], 0, len(code)
    while i < n:
        if code.startswith('//', i):
            j = code.find('\n', i)
            i = n if j < 0 else j
        elif code.startswith('/*', i):
            j = code.find('*/', i + 2)
            out.append('\n' * code.count('\n', i, n if j < 0 else j))
            i = n if j < 0 else j + 2
        elif code[i] in '"\'':
            j = literal_end(code, i)
            out.append(code[i:j])
            i = j
        else:
            out.append(code[i])
            i += 1
    return ''.join(out)


def top_level_literals(code: str, start: int):
    """String literals that are direct arguments of the call whose '(' is at start (not nested calls)."""
    depth, i, n = 0, start, len(code)
    while i < n:
        c = code[i]
        if c in '"\'':
            j = literal_end(code, i)
            if c == '"' and depth == 1:
                yield i, code[i + 1:j - 1]
            i = j
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                return
        i += 1


def shows_english(literal: str) -> bool:
    visible = literal.split('##', 1)[0]
    visible = re.sub(r'\\x[0-9A-Fa-f]{2}|\\[nt"\\]', ' ', visible)
    return WORD.search(NOTATION.sub(' ', visible)) is not None


def main() -> int:
    src, table_path = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    table = json.loads(table_path.read_text(encoding='utf-8'))['texts']
    offences = []
    calls = re.compile(r'\b(?:ImGui::)?(' + '|'.join(DISPLAY_CALLS) + r')\s*\(')
    for path in sorted(src.glob('*.cpp')) + sorted(src.glob('*.h')):
        code = strip_comments(path.read_text(encoding='utf-8'))
        line_of = lambda pos: code.count('\n', 0, pos) + 1
        for match in KEY_CALLS.finditer(code):
            entry = table.get(match.group(1))
            if not isinstance(entry, dict) or not entry.get('en') or not entry.get('zh'):
                offences.append(f'{path.name}:{line_of(match.start())}: key "{match.group(1)}" is not in '
                                f'{table_path.name} in both languages')
        for match in calls.finditer(code):
            for pos, literal in top_level_literals(code, match.end() - 1):
                if shows_english(literal):
                    offences.append(f'{path.name}:{line_of(pos)}: {match.group(1)}() shows "{literal}" '
                                    f'in English only: take it from {table_path.name}')
        keys = {m.start(1) - 1 for m in KEY_CALLS.finditer(code)}
        for match in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', code):
            if match.start() in keys or code.rfind('#include', code.rfind('\n', 0, match.start()), match.start()) >= 0:
                continue
            visible = NOTATION.sub(' ', match.group(1).split('##', 1)[0])
            if PHRASE.search(visible) and not any(f' {path.name}:{line_of(match.start())}:' in ' ' + o for o in offences):
                offences.append(f'{path.name}:{line_of(match.start())}: "{match.group(1)}" reads as English: '
                                f'take it from {table_path.name}')
    for offence in offences:
        print(offence)
    print(f'{len(offences)} UI texts outside the string table' if offences else 'every UI text is in the string table')
    return 1 if offences else 0


if __name__ == '__main__':
    sys.exit(main())
