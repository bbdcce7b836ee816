#!/usr/bin/env python3
"""rooms.py SOURCE_DIR ROOM=LINKS...: every #include of the house points down.

Each ROOM=LINKS names a room of host/core and the rooms its library links (comma-separated).
A file of a room may include its own room's headers and those of any room it reaches through
its links; graders/ includes nothing of the host; the core includes nothing of cli/ or gui/, and
no room of the core or graders includes Qt. Prints every include that points up or sideways.
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


def main():
    src = pathlib.Path(sys.argv[1])
    links = {}
    for arg in sys.argv[2:]:
        room, _, deps = arg.partition('=')
        links[room] = [d for d in deps.split(',') if d]
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
    for room in links:
        below = sorted(reach(room, links) - {room})
        print(f'  {room:14} may include: {", ".join(below) or "(no other room)"}')
    for p in problems:
        print(p)
    print(f'house: {len(links)} rooms, {files} files, {len(problems)} include(s) pointing up')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
