# SPDX-License-Identifier: GPL-2.0
"""One table model, two renderings: the terminal's aligned columns and
Markdown.  A table is a title, notes (sentences printed above it),
columns (a name and an alignment) and rows of strings; a Strong string is
bold in Markdown (a result outside the noise) and plain on the terminal."""


import textwrap

NOTE_WIDTH = 100


class Strong(str):
    """A cell to emphasise."""


class Table:
    def __init__(self, title, columns, notes=(), repeat=0):
        """columns: [(name, "l" or "r")]; repeat: how many leading
        columns name the group a row belongs to (blanked on the terminal
        when they repeat the row above, and a group starts a new block)."""
        self.title = title
        self.columns = columns
        self.notes = list(notes)
        self.repeat = repeat
        self.rows = []

    def add(self, cells):
        if len(cells) != len(self.columns):
            raise ValueError("%s: row of %d cells, %d columns" % (
                self.title, len(cells), len(self.columns)))
        self.rows.append([c if isinstance(c, str) else str(c) for c in cells])


def text(t):
    """The table for a terminal: title, notes, aligned columns."""
    head = [name for name, _ in t.columns]
    body, prev = [], None
    for r in t.rows:
        shown = list(r)
        if t.repeat and prev is not None and r[:t.repeat] == prev[:t.repeat]:
            shown[:t.repeat] = [""] * t.repeat
        elif t.repeat and prev is not None:
            body.append(None)       # a new group: a blank line
        body.append(shown)
        prev = r
    w = [max([len(head[i])] + [len(r[i]) for r in body if r]) for i in range(len(head))]

    def line(cells):
        out = [c.ljust(w[i]) if t.columns[i][1] == "l" else c.rjust(w[i])
               for i, c in enumerate(cells)]
        return "  ".join(out).rstrip()

    notes = [w for n in t.notes for w in textwrap.wrap(n, NOTE_WIDTH)]
    lines = [t.title] + notes + [line(head)]
    lines.append("-" * len(lines[-1]))
    lines += ["" if r is None else line(r) for r in body]
    return "\n".join(lines)


def markdown(t, level=2):
    """The table as a Markdown section: a heading, the notes as
    paragraphs, the table with every row whole."""
    def cell(c):
        s = c.replace("|", "\\|")
        return "**%s**" % s if isinstance(c, Strong) and s.strip() else s
    out = ["#" * level + " " + t.title, ""]
    for n in t.notes:
        out += [n, ""]
    out.append("| " + " | ".join(name for name, _ in t.columns) + " |")
    out.append("|" + "".join("---|" if a == "l" else "---:|" for _, a in t.columns))
    for r in t.rows:
        out.append("| " + " | ".join(cell(c) for c in r) + " |")
    out.append("")
    return "\n".join(out)
