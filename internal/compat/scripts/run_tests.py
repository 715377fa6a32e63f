"""CPython's socketserver tests and a multiprocessing.Manager(), as one
project's suite. A skipped case fails it too: bare, on Linux, every case
runs, and a sandbox that makes the suite skip what it would run (a Unix
socket it cannot bind) hides a difference behind a pass."""

import multiprocessing
import sys
import unittest


def manager_round_trip():
    """A Manager serves shared objects from a process of its own, over a Unix socket."""
    with multiprocessing.Manager() as manager:
        shared = manager.dict()
        shared["answer"] = 42
        items = manager.list(range(3))
        items.append(3)
        return shared["answer"] == 42 and list(items) == [0, 1, 2, 3]


def main():
    suite = unittest.defaultTestLoader.loadTestsFromName("test_socketserver")
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    ok = result.wasSuccessful()
    for test, reason in result.skipped:
        print(f"run_tests: skipped: {test.id()}: {reason}")
        ok = False
    try:
        if not manager_round_trip():
            print("run_tests: multiprocessing.Manager() gave back the wrong values")
            ok = False
    except Exception as e:
        print(f"run_tests: multiprocessing.Manager(): {type(e).__name__}: {e}")
        ok = False
    print("run_tests: " + ("every case ran and passed" if ok else "FAILED"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
