"""Chinese prose from HTML manuals: Debian's (DocBook: debian-reference, debian-faq, maint-guide)
and LibreOffice's help pages.

Kept: the text of paragraphs and list items, with inline code left in place (it is part of the
sentence). Dropped: headings, navigation (page headers, footers, menus), tables of contents, tables,
scripts, and <pre> blocks (commands, listings, file contents). Every h1-h3 heading starts a new document, so the held-out split takes
whole sections.
"""
import html.parser
import pathlib

from document import Document
from text_lines import clean_lines

SKIPPED_ELEMENTS = {"pre", "table", "script", "style", "head", "h1", "h2", "h3", "h4", "h5", "h6",
                    "dt", "title", "header", "nav", "footer", "aside", "noscript", "button", "select"}
SKIPPED_CLASSES = {"navheader", "navfooter", "toc", "list-of-tables", "list-of-figures"}
BREAKS = {"p", "li", "dd", "div", "br", "blockquote", "td", "th", "dt", "ul", "ol", "dl"}
SECTION_STARTS = {"h1", "h2", "h3"}
VOID_ELEMENTS = {"br", "img", "hr", "meta", "link", "col", "input", "area", "base", "wbr"}


class _ProseParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, skipped) for open non-void elements
        self.sections = [[]]  # paragraphs per section
        self.paragraph = []

    def _skipping(self):
        return any(skipped for _, skipped in self.stack)

    def _flush(self):
        text = "".join(self.paragraph).strip()
        if text:
            self.sections[-1].append(text)
        self.paragraph = []

    def handle_starttag(self, tag, attrs):
        if tag in BREAKS or tag in SKIPPED_ELEMENTS:
            self._flush()
        if tag in SECTION_STARTS and self.sections[-1]:
            self.sections.append([])
        if tag in VOID_ELEMENTS:
            return
        classes = set((dict(attrs).get("class") or "").split())
        self.stack.append((tag, tag in SKIPPED_ELEMENTS or bool(classes & SKIPPED_CLASSES)))

    def handle_endtag(self, tag):
        if tag in BREAKS or tag in SKIPPED_ELEMENTS:
            self._flush()
        # Close up to the matching element (HTML may leave inner elements unclosed).
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data):
        if not self._skipping():
            self.paragraph.append(data)

    def close(self):
        super().close()
        self._flush()


def html_documents(folder, pattern, source):
    """One document per section of each file under `folder` matching `pattern` (recursive glob)."""
    folder = pathlib.Path(folder)
    documents = []
    for path in sorted(folder.glob(pattern)):
        parser = _ProseParser()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        parser.close()
        for index, paragraphs in enumerate(parser.sections):
            lines = clean_lines(paragraphs, "zh")
            if lines:
                documents.append(Document(source, f"{path.relative_to(folder)}#{index}", lines))
    return documents
