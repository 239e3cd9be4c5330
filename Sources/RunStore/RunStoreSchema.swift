import GRDB

/// The store's schema, one migration per released change. Never edit a registered migration: add one.
///
/// - `runs`: one row per run, only scalar columns (v7: the head's `subject` and `author`, read lazily; v10: its line
///   coverage, four counts or NULL), so the run list never loads lists. `id` is AUTOINCREMENT, so
///   ids are never reused after pruning (links and `before` paging stay valid). Times are REAL seconds since 1970.
/// - `analyses`: the analysis lists of a run (JSON text arrays); its base and counts live on `runs`.
/// - `targets`, `edges`: a run's selected targets (reasons and failures as JSON text arrays) and dependency edges,
///   kept in the order recorded (`position`).
/// - `transitions`: the journal, one row per state change, in `id` order.
/// - `deliveries`: GitHub webhook delivery ids already seen (the newest ones only).
/// - `misses` (v4): selection misses a canary found (canary, target, the under-selected run and its head).
/// - `testOutcomes`: how each test that ran in a run ended (passed, failed, flaky, quarantined), for flake rates.
/// - `processGroups` (v2): the process groups a running run's children lead, so a daemon restarted after
///   `kill -9` can stop what the dead one left running.
///
/// Children are deleted with their run (ON DELETE CASCADE); a re-queued run outlives the run it repeats
/// (`retryOf` ON DELETE SET NULL). States and triggers are stored as their raw values without a CHECK, so a new
/// state needs no table rebuild; the Swift side only ever writes known values.
enum RunStoreSchema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            repository TEXT NOT NULL,
            branch TEXT NOT NULL,
            trigger TEXT NOT NULL,
            base TEXT,
            head TEXT NOT NULL,
            state TEXT NOT NULL,
            reason TEXT,
            queuedAt REAL NOT NULL,
            startedAt REAL,
            finishedAt REAL,
            selectedTestTargets INTEGER,
            totalTestTargets INTEGER,
            failedTests INTEGER,
            retryOf INTEGER REFERENCES runs(id) ON DELETE SET NULL,
            attempt INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
            logPath TEXT
          );
          CREATE INDEX runs_by_repository ON runs(repository, id);
          CREATE INDEX runs_by_branch ON runs(repository, branch, id);
          CREATE INDEX runs_by_branch_state ON runs(repository, branch, state, id);
          CREATE INDEX runs_by_state ON runs(state, id);
          CREATE INDEX runs_by_finish ON runs(finishedAt);
          CREATE INDEX runs_by_retry ON runs(retryOf) WHERE retryOf IS NOT NULL;

          CREATE TABLE analyses (
            runID INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
            changedFiles TEXT NOT NULL,
            runAllReasons TEXT NOT NULL,
            warnings TEXT NOT NULL
          );

          CREATE TABLE targets (
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            package TEXT NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            isTest INTEGER NOT NULL,
            reasons TEXT NOT NULL,
            status TEXT,
            duration REAL,
            failures TEXT NOT NULL,
            PRIMARY KEY (runID, position),
            UNIQUE (runID, package, name)
          ) WITHOUT ROWID;

          CREATE TABLE edges (
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            fromKey TEXT NOT NULL,
            toKey TEXT NOT NULL,
            PRIMARY KEY (runID, position)
          ) WITHOUT ROWID;

          CREATE TABLE transitions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            fromState TEXT,
            toState TEXT NOT NULL,
            at REAL NOT NULL,
            note TEXT
          );
          CREATE INDEX transitions_by_run ON transitions(runID, id);

          CREATE TABLE deliveries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            deliveryID TEXT NOT NULL UNIQUE,
            receivedAt REAL NOT NULL
          );
          """)
    }
    migrator.registerMigration("v2: process groups") { db in
      try db.execute(
        sql: """
          CREATE TABLE processGroups (
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            pgid INTEGER NOT NULL,
            PRIMARY KEY (runID, pgid)
          ) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("v3: time estimates") { db in
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN fullSuiteSeconds REAL")
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN selectedSeconds REAL")
    }
    migrator.registerMigration("v4: selection misses") { db in
      // A canary is a run with trigger `canary`; its misses name the selective run that left a target out.
      try db.execute(
        sql: """
          CREATE TABLE misses (
            canaryID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            commitID TEXT NOT NULL,
            foundAt REAL NOT NULL,
            PRIMARY KEY (canaryID, target, runID)
          ) WITHOUT ROWID;
          CREATE INDEX misses_by_run ON misses(runID);
          CREATE INDEX misses_by_found ON misses(foundAt);
          CREATE INDEX runs_by_trigger ON runs(repository, branch, trigger, id);
          """)
    }
    migrator.registerMigration("testOutcomes") { db in
      // One row per test that ran in a run (skipped ones are not kept): the flake rates and the flaky panel.
      try db.execute(
        sql: """
          CREATE TABLE testOutcomes (
            runID INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            package TEXT NOT NULL,
            test TEXT NOT NULL,
            kind TEXT NOT NULL,
            failure TEXT,
            PRIMARY KEY (runID, package, test)
          ) WITHOUT ROWID;
          CREATE INDEX testOutcomes_by_test ON testOutcomes(package, test, runID);
          """)
    }
    migrator.registerMigration("v5: base note") { db in
      // Which base a run compared with and why (RunPlanning.base), for the run page.
      try db.execute(sql: "ALTER TABLE analyses ADD COLUMN baseNote TEXT")
    }
    migrator.registerMigration("v6: pass records") { db in
      // The team's store of pass records (docs/DESIGN.md, "Pass records"): bytes by key, bounded by size, the
      // least recently read first out. Trust is decided by readers, never here.
      try db.execute(
        sql: """
          CREATE TABLE passRecords (
            key TEXT PRIMARY KEY NOT NULL,
            data BLOB NOT NULL,
            size INTEGER NOT NULL,
            usedAt REAL NOT NULL
          ) WITHOUT ROWID;
          CREATE INDEX passRecords_by_use ON passRecords(usedAt);
          """)
    }
    migrator.registerMigration("v7: commit names") { db in
      // The head commit's subject and author, read from the mirror once (RunStore.nameCommit) for the pages.
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN subject TEXT")
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN author TEXT")
    }
    migrator.registerMigration("v8: target history") { db in
      // A target's runs, newest first (RunStore.targetHistory), without a walk of every run's targets.
      try db.execute(sql: "CREATE INDEX targets_by_name ON targets(package, name, runID)")
    }
    migrator.registerMigration("v9: build and test time") { db in
      // Each run's build and test phases (RunStore.recordResults), for the run page.
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN buildSeconds REAL")
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN testSeconds REAL")
    }
    migrator.registerMigration("v10: coverage") { db in
      // The suite's line coverage of a run (`coverage: true`, RunStore.recordCoverage): all four or none (NULL: the
      // run measured none, never 0 %).
      for column in [
        "coverageLinesCovered", "coverageLinesTotal", "coverageTargetsMeasured", "coverageTargetsNotMeasured",
      ] {
        try db.execute(sql: "ALTER TABLE runs ADD COLUMN \(column) INTEGER")
      }
    }
    migrator.registerMigration("v11: fresh runs") { db in
      // A run that reads no pass record (a re-run asked `fresh`; canaries are fresh by their trigger).
      try db.execute(sql: "ALTER TABLE runs ADD COLUMN fresh INTEGER NOT NULL DEFAULT 0")
    }
    return migrator
  }
}
