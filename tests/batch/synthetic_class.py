#!/usr/bin/env python3
"""make_class.py: a synthetic class of built and source submissions, for grading at scale.

    synthetic_class.py OUT --awb AWB --plugins DIR --mutants DIR --source-root SRC
                  [--built N] [--good-sources N] [--broken-sources N] [--hostile-sources N]

OUT/class/<id>/ gets, by a fixed shuffle of the ids:
  * built submissions: one plugin file each, the bundled plugins and the shipped mutants in turn;
  * good source submissions: CMake projects that build: `awb new-plugin` projects of every kind,
    with and without --starter, and the mutants'
    sources (graders/mutants) as a student project; each tree carries its student id, so every
    one is a build of its own, not a cache hit;
  * broken source submissions: the same projects with a line that does not compile;
  * hostile source submissions: the hostile build corpus (tests/fixtures/hostile_builds), whose
    paths point into OUT/outside (canaries there must survive).
Prints how many of each it made.
"""
import argparse
import random
import shutil
import subprocess
import sys
from pathlib import Path

KINDS = ['parameter-free', 'qkv', 'multi-head', 'causal']

MUTANT_PROJECT = """# A student's project made from one of awb's mutants (one classic mistake).
cmake_minimum_required(VERSION 3.20)
project(MutantSubmission LANGUAGES C CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(AwbSdk 1 REQUIRED)
awb_add_plugin(NAME {target} SOURCES mutant.cpp mutant_entry.c)
set_target_properties({target} PROPERTIES LINKER_LANGUAGE CXX)
target_include_directories({target} PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}})
target_compile_definitions({target} PRIVATE AWB_MUTANT={index} AWB_MUTANT_ID="org.student.{name}")
"""


def mutant_names(source_root):
    rows = (source_root / 'graders/mutants/mistakes.hpp').read_text().splitlines()
    names = []
    for row in rows:
        row = row.strip()
        if row.startswith('{Mistake::k') and '"' in row:
            names.append(row.split('"')[1])
    return names


def project_templates(args, work):
    """Folders of projects that build: (name, folder, main source file)."""
    out = []
    for kind in KINDS:
        for starter in (False, True):
            name = f"{kind}{'-starter' if starter else ''}"
            folder = work / name
            cmd = [args.awb, 'new-plugin', str(folder), '--kind', kind]
            if starter:
                cmd.append('--starter')
            subprocess.run(cmd, check=True, capture_output=True)
            out.append((name, folder, Path('src/student_attention.cpp')))
    mutants = args.source_root / 'graders/mutants'
    for index, name in enumerate(mutant_names(args.source_root), start=1):
        folder = work / f'mutant-{name}'
        folder.mkdir(parents=True)
        for f in ('mutant.cpp', 'mutant_entry.c'):
            shutil.copy(mutants / f, folder / f)
        (folder / 'graders/mutants').mkdir(parents=True)
        shutil.copy(mutants / 'mistakes.hpp', folder / 'graders/mutants/mistakes.hpp')
        target = 'mutant_' + name.replace('-', '_')
        (folder / 'CMakeLists.txt').write_text(
            MUTANT_PROJECT.format(target=target, index=index, name=name))
        out.append((f'mutant-{name}', folder, Path('mutant.cpp')))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('out', type=Path)
    ap.add_argument('--awb', required=True)
    ap.add_argument('--plugins', type=Path, required=True)
    ap.add_argument('--mutants', type=Path, required=True)
    ap.add_argument('--source-root', type=Path, required=True)
    ap.add_argument('--built', type=int, default=940)
    ap.add_argument('--good-sources', type=int, default=30)
    ap.add_argument('--broken-sources', type=int, default=20)
    ap.add_argument('--hostile-sources', type=int, default=10)
    args = ap.parse_args()

    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    cls, outside, work = out / 'class', out / 'outside', out / 'templates'
    for d in (cls, outside / 'home', outside / 'results', work):
        d.mkdir(parents=True)
    for d in (outside, outside / 'home', outside / 'results'):
        (d / 'canary').write_text('keep\n')

    total = args.built + args.good_sources + args.broken_sources + args.hostile_sources
    ids = [f's{i:04d}' for i in range(total)]
    random.Random(2026).shuffle(ids)
    take = iter(ids)

    files = sorted(args.plugins.glob('*.so')) + sorted(args.mutants.glob('*.so'))
    for i in range(args.built):
        folder = cls / next(take)
        folder.mkdir()
        shutil.copy(files[i % len(files)], folder / files[i % len(files)].name)

    projects = project_templates(args, work)
    for kind, count in (('good', args.good_sources), ('broken', args.broken_sources)):
        for i in range(count):
            sid = next(take)
            name, template, main_file = projects[i % len(projects)]
            folder = cls / sid
            shutil.copytree(template, folder)
            (folder / 'STUDENT').write_text(f'{sid} ({name})\n')
            if kind == 'broken':
                with open(folder / main_file, 'a') as f:
                    f.write('\nint this_does_not_compile = ;\n')

    corpus = sorted(p for p in (args.source_root / 'tests/fixtures/hostile_builds').iterdir())
    for i in range(args.hostile_sources):
        sid = next(take)
        case = corpus[i % len(corpus)]
        folder = cls / sid
        folder.mkdir()
        text = (case / 'CMakeLists.txt').read_text()
        for key, value in (('@HOST_HOME@', outside / 'home'), ('@SUBMISSIONS@', cls),
                           ('@RESULTS@', outside / 'results'), ('@OUTSIDE@', outside)):
            text = text.replace(key, str(value))
        (folder / 'CMakeLists.txt').write_text(text)
        (folder / 'STUDENT').write_text(f'{sid} (hostile {case.name})\n')

    print(f'{out}/class: {total} submissions: {args.built} built, {args.good_sources} source '
          f'that build, {args.broken_sources} that do not, {args.hostile_sources} hostile; '
          f'{len(projects)} project templates')


if __name__ == '__main__':
    sys.exit(main())
