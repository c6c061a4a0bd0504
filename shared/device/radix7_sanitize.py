"""Dev (session 7): sanitize_cases.py's radix cases with regs.py's ``mbar`` flag forced on
every register-kernel launch (over checks.reg_variant's pick).

Usage (device): compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/radix7_sanitize.py
"""

import sys

import sanitize_cases  # same folder

from topk_radix import checks

_pick = checks.reg_variant


def _with_mbar(*args, **kwargs):
    return {**_pick(*args, **kwargs), "mbar": True}


if __name__ == "__main__":
    checks.reg_variant = _with_mbar  # launch looks it up on the module at every call
    sys.exit(sanitize_cases.main(["radix"]))
