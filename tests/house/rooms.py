#!/usr/bin/env python3
"""rooms.py SOURCE_DIR ROOM=LINKS... [--gui ROOM=LINKS...]: every #include of the house points down.

Each ROOM=LINKS names a room of host/core and the rooms its library links (comma-separated);
after --gui, a room of host/gui (charts, session, views/explore, app, ...) and the gui rooms it
links. A file of a room may include its own room's headers and those of any room it reaches
through its links (a room of host/gui reaches the whole core and graders/ too); graders/
includes nothing of the host; the core includes nothing of cli/ or gui/, and no room of the
core or graders includes Qt. Prints every include that points up or sideways.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^">]+)[">]', re.M)


def reach(room, links):
    seen, todo = {room}, [room]
    while todo:
        for r in links.get(todo.pop(), []):
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


def read_links(args):
    links = {}
    for arg in args:
        room, _, deps = arg.partition('=')
        links[room] = [d for d in deps.split(',') if d]
    return links


def gui_room_of(rel, gui_links):
    """The room of host/gui holding `rel` (a path under host/), the deepest that matches."""
    under = rel[len('gui/'):]
    rooms = [r for r in gui_links if under.startswith(r + '/')]
    return max(rooms, key=len) if rooms else None


def check_gui(src, gui_links, problems):
    """Every #include "gui/..." of host/gui points at its own room or one its links reach."""
    files = 0
    for path in sorted(src.glob('host/gui/**/*')):
        if path.suffix not in ('.hpp', '.cpp', '.h', '.c'):
            continue
        files += 1
        rel = path.relative_to(src / 'host').as_posix()
        room = gui_room_of(rel, gui_links)
        if room is None:
            problems.append(f'host/{rel}: a file of host/gui outside its rooms')
            continue
        text = path.read_text(encoding='utf-8')
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            where = f'host/{rel}:{line}: #include "{inc}"'
            if inc.startswith(('cli/', 'runner/', 'builder/', 'figure/')):
                problems.append(f'{where}: the GUI reaches into another program')
            elif inc.startswith('gui/'):
                target = gui_room_of(inc, gui_links)
                if target is None:
                    problems.append(f'{where}: not a header of a room of host/gui')
                elif target not in reach(room, gui_links):
                    problems.append(f'{where}: room {room} does not link room {target}')
    return files


def main():
    src = pathlib.Path(sys.argv[1])
    args = sys.argv[2:]
    gui_args = args[args.index('--gui') + 1:] if '--gui' in args else []
    links = read_links(args[:args.index('--gui')] if '--gui' in args else args)
    gui_links = read_links(gui_args)
    problems = []
    core = src / 'host' / 'core'
    rooms_on_disk = {p.name for p in core.iterdir() if p.is_dir()}
    for missing in sorted(rooms_on_disk - links.keys()):
        problems.append(f'host/core/{missing}/: a folder that is not a room of the house')
    files = 0
    for path in sorted(src.glob('host/core/**/*')) + sorted(src.glob('graders/**/*')):
        if path.suffix not in ('.hpp', '.cpp', '.h', '.c', '.in'):
            continue
        files += 1
        rel = path.relative_to(src).as_posix()
        text = path.read_text(encoding='utf-8')
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            where = f'{rel}:{line}: #include "{inc}"'
            if inc.startswith('Q') or inc.startswith('qt'):
                problems.append(f'{where}: Qt below the front ends')
            if rel.startswith('graders/'):
                if inc.startswith(('core/', 'cli/', 'gui/', 'runner/')):
                    problems.append(f'{where}: graders/ reaches up into the host')
                continue
            room = rel.split('/')[2]
            if inc.startswith(('cli/', 'gui/')):
                problems.append(f'{where}: the core reaches up into a front end')
            elif inc.startswith('core/'):
                target = inc.split('/')[1]
                if target not in reach(room, links):
                    problems.append(f'{where}: room {room} does not link room {target}')
    gui_files = check_gui(src, gui_links, problems) if gui_links else 0
    print('host/core:')
    for room in links:
        below = sorted(reach(room, links) - {room})
        print(f'  {room:14} may include: {", ".join(below) or "(no other room)"}')
    if gui_links:
        print('host/gui (and all of host/core):')
        for room in gui_links:
            below = sorted(reach(room, gui_links) - {room})
            print(f'  {room:14} may include: {", ".join(below) or "(no other room)"}')
    else:
        print('host/gui: not built (no Qt), its rooms not checked')
    for p in problems:
        print(p)
    print(f'house: {len(links)} core rooms, {len(gui_links)} gui rooms, {files + gui_files} files, '
          f'{len(problems)} include(s) pointing up')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
