#!/usr/bin/env python3
"""Every function of a binary that can run before the CPU is known is x86-64 baseline code.

A build for any x86-64 carries AVX2 and AVX-512 code only inside its worlds (cmake/
AwbIsaWorlds.cmake), whose symbols end in ".avx2" / ".avx512"; everything else must run on
any x86-64. This disassembles each binary given and fails, naming the function and the
instruction, where code outside a world uses AVX (any VEX or EVEX instruction: v-prefixed
mnemonics, ymm/zmm/mask registers), BMI1/2, LZCNT or MOVBE. (TZCNT is left out: compilers
emit it for the baseline as `rep bsf`, which older CPUs run as BSF.)

Usage: baseline_code.py OBJDUMP BINARY... [--allow REGEX]...  (REGEX: functions, by mangled
name, that choose their instruction set themselves, as the bench's FMA loops do by CPUID).
"""
import re
import subprocess
import sys

WORLD_SUFFIX = re.compile(r"\.(avx2|avx512)(\.|$)")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
NOT_BASELINE = re.compile(
    r"%[yz]mm\d|%k[0-7]\b|^(v(?!err|erw)\w+|andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|"
    r"rorx|sarx|shlx|shrx|lzcnt|movbe|k(mov|and|or|xor|not|shift|test|unpck|add)\w*)\b")


def main(argv):
    objdump, rest = argv[1], argv[2:]
    allow, binaries = [], []
    while rest:
        if rest[0] == "--allow":
            allow.append(re.compile(rest[1]))
            rest = rest[2:]
        else:
            binaries.append(rest[0])
            rest = rest[1:]
    failures, checked = [], 0
    for binary in binaries:
        out = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], check=True,
                             capture_output=True, text=True).stdout
        function, skip = None, True
        for line in out.splitlines():
            m = FUNCTION.match(line)
            if m:
                function = m.group(1)
                skip = bool(WORLD_SUFFIX.search(function)) or any(a.search(function) for a in allow)
                checked += not skip
                continue
            if skip or "\t" not in line:
                continue
            instruction = line.split("\t", 1)[1].strip()
            if NOT_BASELINE.search(instruction):
                failures.append(f"{binary}: {function}: {instruction}")
                skip = True  # one line per function is enough
    for f in failures:
        print(f)
    print(f"{checked} functions outside the worlds checked in {len(binaries)} binaries; "
          f"{len(failures)} use more than the x86-64 baseline")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
