"""The programs' man pages in mdoc(7), one per command, from the command tree each program
prints with `--experimental-dump-help` (ArgumentParser's ToolInfo JSON).

Written here rather than built: ArgumentParser's generate-manual is a product of its own, and
building it after the programs cost CI about a minute on two cores. The layout is that
tool's (NAME, SYNOPSIS, DESCRIPTION with a tagged list of the arguments, EXIT STATUS, SEE
ALSO), named the way man-db's index reads them and git names its commands' pages
(`qna-join`, with `qna join` in the synopsis). Text other than ASCII is kept, as groff's
`\\[uXXXX]` escapes (generate-manual dropped it).
"""

import time

# mdoc(7)'s macros that are called when named on another macro's line.
CALLABLE = set(
    "Ac Ad An Ao Ap Aq Ar At Bc Bo Bq Brc Bro Brq Bsx Bx Cd Cm Dc Do Dq Dv Dx Ec Em En Eo Er "
    "Es Ev Fa Fc Fl Fn Fo Fr Fx Hf Ic In Lb Li Lk Ms Mt Nm No Ns Nx Oc Oo Op Ot Ox Pa Pc Pf "
    "Po Pq Qc Ql Qo Qq Sc So Sq St Sx Sy Ta Tn Ux Va Vt Xc Xo Xr".split())
# Delimiters mdoc(7) treats as punctuation when they stand alone as arguments.
PUNCTUATION = set(". , : ; ( ) [ ] ? !".split())
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def commands(command, prefix=()):
    """Each command of a tree (the dump's "command"), with the words a user types for it,
    its subcommands after it."""
    words = [*prefix, command["commandName"]]
    yield words, command
    for sub in subcommands(command):
        yield from commands(sub, words)


def subcommands(command):
    """A command's subcommands but ArgumentParser's `help`, which the programs do not have."""
    return [s for s in command.get("subcommands") or [] if s["commandName"] != "help"]


def pages(tree, date):
    """{words: page text} for every command of `tree`."""
    return {tuple(words): page(command, words, date) for words, command in commands(tree)}


def page(command, words, date):
    """One command's page. `date`: seconds since 1970, shown in the page's header."""
    day = time.gmtime(date)
    name = "-".join(words)
    lines = [
        '.\\" "Generated from the programs\' --experimental-dump-help"',
        f".Dd {MONTHS[day.tm_mon - 1]} {day.tm_mday}, {day.tm_year}",
        f".Dt {name.upper()} 1",
        ".Os",
        ".Sh NAME",
        f".Nm {name}",
    ]
    if command.get("abstract"):
        lines.append(".Nd " + described_line(command["abstract"]))
    lines += [".Sh SYNOPSIS", ".Nm " + argument(" ".join(words))]
    below = subcommands(command)
    if below:
        if command.get("defaultSubcommand"):
            lines.append(".Op Ar subcommand")
        else:
            lines.append(".Ar subcommand")
    shown = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    for each in shown:
        synopsis = synopsis_of(each)
        lines.append(f".Op {synopsis}" if each.get("isOptional") else f".{synopsis}")
    description = []
    if command.get("discussion"):
        description += text_lines(command["discussion"])
    if shown:
        description.append(".Bl -tag -width 6n")
        for each in shown:
            description.append(".It " + described(each))
            if each.get("abstract"):
                description += text_lines(each["abstract"])
            values = each.get("allValueStrings")
            if each.get("abstract") and (each.get("discussion") or values):
                description.append(".Pp")
            if each.get("discussion"):
                description += text_lines(each["discussion"])
            if values and each.get("allValueDescriptions"):
                if each.get("discussion"):
                    description.append(".Pp")
                description.append(".Bl -tag -width 6n")
                for value in values:
                    description.append(".It Ar " + argument(value))
                    if each["allValueDescriptions"].get(value):
                        description += text_lines(each["allValueDescriptions"][value])
                description.append(".El")
        description.append(".El")
    if description:
        lines += [".Sh DESCRIPTION", *description]
    lines += ['.Sh "EXIT STATUS"', ".Ex -std"]
    if below:
        references = sorted(f"{name}-{s['commandName']}" for s in below)
        lines.append('.Sh "SEE ALSO"')
        lines += [f".Xr {r} 1 ," for r in references[:-1]] + [f".Xr {references[-1]} 1"]
    return "\n".join(lines) + "\n"


def value_name(each):
    name = each.get("valueName") or ""
    return "Ar " + argument(name + ("..." if each.get("isRepeating") else ""))


def flag(name):
    """A name as `Fl` shows it: `Fl` adds one dash, so a long name keeps one of its two."""
    return "-" + name["name"] if name["kind"] == "long" else name["name"]


def synopsis_of(each):
    """How the synopsis shows an argument, without the brackets of an optional one."""
    if each["kind"] == "positional":
        return value_name(each)
    preferred = each.get("preferredName") or each["names"][0]
    if each["kind"] == "option":
        return f"Fl {flag(preferred)} {value_name(each)}"
    return f"Fl {flag(preferred)}"


def described(each):
    """An argument as the description lists it: every name, short ones first."""
    if each["kind"] == "positional":
        return value_name(each)
    names = sorted(each.get("names") or [], key=lambda n: n["kind"] != "short")
    shown = " , ".join(flag(n) for n in names)
    return f"Fl {shown} {value_name(each)}" if each["kind"] == "option" else f"Fl {shown}"


def unicode(character):
    return character if ord(character) < 128 else f"\\[u{ord(character):04X}]"


def argument(value):
    """A macro's argument: backslashes and double quotes escaped, quoted when it has a blank
    (or is empty)."""
    escaped = "".join(
        "\\e" if c == "\\" else "\\(dq" if c == '"' else " " if c == "\n" else unicode(c)
        for c in value)
    if not escaped or " " in escaped:
        return f'"{escaped}"'
    # A value that names a macro, or is punctuation mdoc moves, stays a word.
    return "\\&" + escaped if escaped in CALLABLE or escaped in PUNCTUATION else escaped


def text(value):
    """Running text on one line: backslashes escaped, and a zero-width space before a dot, an
    apostrophe or a blank that starts it (a dot or apostrophe would make it a macro line)."""
    escaped = "".join("\\e" if c == "\\" else unicode(c) for c in value)
    return "\\&" + escaped if escaped[:1] in (".", "'", " ") else escaped


def described_line(value):
    """The rest of a macro line as words: double quotes escaped, and a word that names a
    callable macro (`It`, `No`, `Ar`…) kept a word with a zero-width space before it."""
    words = argument(value).strip('"').split(" ")
    return " ".join("\\&" + w if w in CALLABLE else w for w in words)


def text_lines(value):
    """Text with its line breaks: a blank line is a paragraph break."""
    return [".Pp" if not line.strip() else text(line) for line in value.split("\n")]
