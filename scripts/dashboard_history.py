#!/usr/bin/env python3
"""The repository history charts in `make dashboard-shot` (scripts/dashboard-shot.sh).

  dashboard_history.py seed DB REPOSITORY
      Adds ~50 days of finished runs of REPOSITORY's `main` to rippled's store DB (SQLite, WAL: the running
      daemon keeps it open), so the charts have days and weeks to draw: runs whose analysis recorded the suite
      times (the whole suite's time from the repository's real runs, so the scales agree), a weekly canary, and
      selection misses some canaries found, and test outcomes (a test that is flaky in some runs: the weekly
      flaky series and the flaky-tests panel), and line coverage per run (every fifth partial: some test targets
      not measured). Each run gets its journal (queued, running, final state). The real runs are made in
      minutes; rippled has no clock to move, so the past is written here, after them.

  dashboard_history.py check HTML MIN_RUN_BARS MIN_DAY_BARS MIN_WEEK_BARS [MIN_FLAKY_WEEK_BARS [MIN_COVERAGE_POINTS]]
      Checks the DOM Chromium built (--dump-dom): each picture exactly once, as an <svg> with its aria-label,
      with at least the given number of bars (selected-test bars per run, days with time saved, weeks with
      misses), and the weekly chart drawing flaky tests or saying there is no flaky data. With
      MIN_FLAKY_WEEK_BARS, that many weeks with flaky tests and the flaky-tests panel. With MIN_COVERAGE_POINTS
      (over 0), the "Line coverage per run" picture exactly once with that many points, a partial one among
      them; without, no such picture and the sentence that no coverage is recorded. Prints one line per
      check; exit 1 on a failure.

  dashboard_history.py png PNG WIDTH HEIGHT MIN_BYTES
      Checks a screenshot's size in pixels (the PNG header) and in bytes.
"""
import hashlib
import re
import sqlite3
import struct
import sys
import time

DAY = 86_400
TITLES = {  # aria-label prefix → the class of the bars counted (HistoryCharts.swift)
    "Test time per run": "rc-selected",
    "Time saved per day": "rc-saved",
    "Selection misses and flaky tests per week": "rc-miss",
}
COVERAGE_TITLE = "Line coverage per run"  # drawn only once a run recorded coverage (HistoryCharts.coverageTitle)
NO_COVERAGE = "no coverage recorded; set coverage: true in rippled.yml"


def seed(path, repository):
    con = sqlite3.connect(path, timeout=30)
    full_base = con.execute(
        "SELECT max(fullSuiteSeconds) FROM runs WHERE repository = ?", (repository,)).fetchone()[0] or 60.0
    # Wall-clock time (builds included) is what the "time saved" chart measures: the seeded runs take as long as
    # the repository's real runs did, so today's real bars and the seeded days share one scale.
    wall_base = con.execute(
        "SELECT max(finishedAt - startedAt) FROM runs WHERE repository = ? AND startedAt IS NOT NULL"
        " AND finishedAt IS NOT NULL", (repository,)).fetchone()[0] or 60.0
    total = con.execute(
        "SELECT max(totalTestTargets) FROM runs WHERE repository = ?", (repository,)).fetchone()[0] or 10
    today = int(time.time()) // DAY * DAY
    fractions = [0.12, 0.4, 0.05, 1.0, 0.22, 0.6, 0.3, 0.15]
    per_day = [2, 3, 1, 0, 4, 2, 0, 3, 1, 2, 5]
    counter = 0

    def insert(at, trigger, fraction, end=None):
        nonlocal counter
        counter += 1
        full = round(full_base * (0.85 + 0.3 * ((counter * 7) % 5) / 4), 6)
        selected = round(full * fraction, 6)
        failed = 1 if counter % 6 == 0 and trigger != "canary" else 0
        state = "failed" if failed else "passed"
        wall = wall_base * (0.85 + 0.3 * ((counter * 3) % 5) / 4) * (0.3 + 0.7 * fraction)
        started, finished = (at + 15, at + 15 + round(wall, 3)) if end is None else (end - round(wall, 3), end)
        head = hashlib.sha1(f"seeded {counter}".encode()).hexdigest()
        # Line coverage creeping up from ~62 % with some noise; every fifth run partial (targets not measured:
        # the files they reach left out, so fewer lines).
        not_measured = 1 + counter % 2 if counter % 5 == 0 else 0
        lines_total = 4200 - 600 * not_measured
        percent = min(95, 62 + counter * 0.12 + ((counter * 13) % 7) - 3)
        run = con.execute(
            """INSERT INTO runs (repository, branch, trigger, base, head, state, reason, queuedAt, startedAt,
               finishedAt, selectedTestTargets, totalTestTargets, failedTests, attempt, fullSuiteSeconds,
               selectedSeconds, coverageLinesCovered, coverageLinesTotal, coverageTargetsMeasured,
               coverageTargetsNotMeasured) VALUES (?, 'main', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)""",
            (repository, trigger, None if trigger == "canary" else hashlib.sha1(head.encode()).hexdigest(), head,
             state, "1 test failed" if failed else None, at, started, finished,
             max(1, round(total * fraction)), total, failed, full, selected,
             round(lines_total * percent / 100), lines_total, max(1, total - not_measured), not_measured)).lastrowid
        for previous, new, when in [(None, "queued", at), ("queued", "running", started), ("running", state, finished)]:
            con.execute("INSERT INTO transitions (runID, fromState, toState, at, note) VALUES (?, ?, ?, ?, ?)",
                        (run, previous, new, when, "seeded history (dashboard-shot)" if new == "queued" else None))
        return run, head, finished

    # The misses name the repository's own test targets (package:name, as the real misses do).
    tests = [row[0] for row in con.execute(
        "SELECT DISTINCT package || ':' || name FROM targets JOIN runs ON runs.id = targets.runID"
        " WHERE runs.repository = ? AND isTest = 1 ORDER BY 1", (repository,))] or [".:Tests"]
    misses_by_canary_day = {38: tests[-1:], 24: tests[:2], 10: tests[:1]}
    # One test flaky in every fifth selective run of the last four weeks, another once: flake rates and weeks.
    flaky_test = tests[0].split(":", 1)[1] + ".SessionTests/testRefreshesTheToken"
    rare_test = tests[-1].split(":", 1)[1] + ".ClockTests/testMidnight"
    last_selective = None
    runs = misses = flaky = 0
    for ago in range(50, 0, -1):
        start = today - ago * DAY
        for k in range(per_day[ago % len(per_day)]):
            last_selective = insert(start + 9 * 3600 + k * 7200, "fetch", fractions[(ago + k) % len(fractions)])
            runs += 1
            if ago <= 28:
                kind = "flaky" if runs % 5 == 0 else "passed"
                failure = "SessionTests.swift:41: XCTAssertEqual failed: the token expired mid-test" if kind == "flaky" else None
                con.execute("INSERT INTO testOutcomes (runID, package, test, kind, failure) VALUES (?, '.', ?, ?, ?)",
                            (last_selective[0], flaky_test, kind, failure))
                flaky += kind == "flaky"
            if ago == 12 and k == 0:
                con.execute("INSERT INTO testOutcomes (runID, package, test, kind, failure) VALUES (?, '.', ?, 'flaky', ?)",
                            (last_selective[0], rare_test, "ClockTests.swift:9: the day rolled over"))
                flaky += 1
        if ago % 7 == 3:  # a weekly canary, early in the day: it runs every test target
            canary, _, found = insert(start + 3 * 3600, "canary", 1.0)
            runs += 1
            for target in misses_by_canary_day.get(ago, []):
                run, head, _ = last_selective
                con.execute("INSERT INTO misses (canaryID, target, runID, commitID, foundAt) VALUES (?, ?, ?, ?, ?)",
                            (canary, target, run, head, found))
                misses += 1
    # The newest canary is what the "time saved" chart measures wall-clock savings against (a full run: every
    # target, builds included); the real one of today ran on a tiny fixture, shorter than any seeded run.
    # It ends after every real run (the real canary may have ended a moment ago), and not in the future.
    newest = con.execute("SELECT max(finishedAt) FROM runs WHERE repository = ?", (repository,)).fetchone()[0] or 0
    end = max(time.time() - 1, newest + 0.5)
    insert(end - wall_base * 1.2 - 15, "canary", 1.0, end=end)
    runs += 1
    con.commit()
    print(f"seeded {runs} runs over 50 days, {misses} selection misses and {flaky} flaky outcomes (whole suite ~{full_base:.3f} s, as the real runs recorded)")


def check(path, minimums, min_flaky=0, min_coverage=0):
    html = open(path, encoding="utf-8").read()
    failures = 0
    for (title, bar_class), minimum in zip(TITLES.items(), minimums):
        pictures = re.findall(r'<svg\b[^>]*\baria-label="' + re.escape(title), html)
        start = html.find('aria-label="' + title)
        end = html.find("</svg>", start)
        bars = len(re.findall(r'class="rc-bar ' + bar_class + '"', html[start:end])) if start >= 0 else 0
        ok = len(pictures) == 1 and bars >= minimum
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  the picture '{title}': {len(pictures)} <svg>, {bars} bars"
              f" (at least {minimum})")
    # Until the flaky counts are passed in, the weekly picture says so; then it has their series' swatch.
    ok = "no flaky data" in html or 'class="rc-swatch rc-flaky"' in html
    failures += not ok
    print(f"  {'ok  ' if ok else 'FAIL'}  the weekly picture draws flaky tests or says there is no flaky data")
    if min_flaky:
        start = html.find('aria-label="Selection misses and flaky tests per week')
        bars = len(re.findall(r'class="rc-bar rc-flaky"', html[start:html.find("</svg>", start)]))
        panel = re.search(r'<section class="misses flaky"[^>]*><h2>Flaky tests in ', html) is not None
        ok = bars >= min_flaky and panel
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  {bars} weeks with flaky tests (at least {min_flaky}), the flaky-tests"
              f" panel {'shown' if panel else 'missing'}")
    pictures = re.findall(r'<svg\b[^>]*\baria-label="' + re.escape(COVERAGE_TITLE), html)
    if min_coverage:
        start = html.find('aria-label="' + COVERAGE_TITLE)
        picture = html[start:html.find("</svg>", start)] if start >= 0 else ""
        points = len(re.findall(r'<circle class="rc-point ', picture))
        partial = len(re.findall(r'<circle class="rc-point rc-partial"', picture))
        ok = len(pictures) == 1 and points >= min_coverage and partial >= 1
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  the picture '{COVERAGE_TITLE}': {len(pictures)} <svg>, {points} points"
              f" (at least {min_coverage}), {partial} partial (at least 1)")
    else:
        ok = not pictures and NO_COVERAGE in html
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  no run recorded coverage: no '{COVERAGE_TITLE}' picture"
              f" ({len(pictures)} <svg>), the page says '{NO_COVERAGE}'")
    return failures


def png(path, width, height, min_bytes):
    data = open(path, "rb").read()
    size = struct.unpack(">II", data[16:24]) if data[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)
    ok = size == (width, height) and len(data) >= min_bytes
    print(f"  {'ok  ' if ok else 'FAIL'}  {path.rsplit('/', 1)[-1]} is {size[0]}x{size[1]}, {len(data)} bytes"
          f" (want {width}x{height}, at least {min_bytes})")
    return 0 if ok else 1


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "seed" and len(sys.argv) == 4:
        seed(sys.argv[2], sys.argv[3])
    elif command == "check" and len(sys.argv) in (6, 7, 8):
        extra = [int(n) for n in sys.argv[6:]]
        sys.exit(1 if check(sys.argv[2], [int(n) for n in sys.argv[3:6]], *extra) else 0)
    elif command == "png" and len(sys.argv) == 6:
        sys.exit(png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
