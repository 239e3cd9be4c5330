// Output captured from a real `swift test --xunit-output out.xml` run (Swift 6.3.1, Linux) of a
// package with an XCTest target `XTests` (class MathTests: testAdd passes, testFails fails,
// testSkipped throws XCTSkip) and a Swift Testing target `STests` (suite AddSuite: adds(),
// failsToo() fails, disabled() is disabled, param(x:) with 2 cases; free function freeFunction()).

enum Fixtures {
  static let console = #"""
    Test Suite 'All tests' started at 2026-11-22 13:26:17.360
    Test Suite 'debug.xctest' started at 2026-11-22 13:26:17.377
    Test Suite 'MathTests' started at 2026-11-22 13:26:17.377
    Test Case 'MathTests.testAdd' started at 2026-11-22 13:26:17.377
    Test Case 'MathTests.testAdd' passed (0.009 seconds)
    Test Case 'MathTests.testFails' started at 2026-11-22 13:26:17.386
    /tmp/trsample/Tests/XTests/XTests.swift:5: error: MathTests.testFails : XCTAssertEqual failed: ("3") is not equal to ("4") - wrong <sum> & "quote"
    Test Case 'MathTests.testFails' failed (0.003 seconds)
    Test Case 'MathTests.testSkipped' started at 2026-11-22 13:26:17.389
    /tmp/trsample/Tests/XTests/XTests.swift:6: MathTests.testSkipped : Test skipped - not today
    Test Case 'MathTests.testSkipped' skipped (0.0 seconds)
    Test Suite 'MathTests' failed at 2026-11-22 13:26:17.390
    	 Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.013 (0.013) seconds
    Test Suite 'debug.xctest' failed at 2026-11-22 13:26:17.390
    	 Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.013 (0.013) seconds
    Test Suite 'All tests' failed at 2026-11-22 13:26:17.390
    	 Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.013 (0.013) seconds
    ◇ Test run started.
    ↳ Testing Library Version: 6.3.1 (937120cbc281cf2)
    ↳ Target Platform: x86_64-unknown-linux-gnu
    ◇ Suite AddSuite started.
    ◇ Test freeFunction() started.
    ◇ Test adds() started.
    ➜ Test disabled() skipped: "later"
    ◇ Test failsToo() started.
    ◇ Test param(x:) started.
    ✘ Test failsToo() recorded an issue at STests.swift:5:27: Expectation failed: (add(1, 2) → 3) == 4
    ↳ bad <sum>
    ◇ Test case passing 1 argument x → 1 to param(x:) started.
    ◇ Test case passing 1 argument x → 2 to param(x:) started.
    ✔ Test freeFunction() passed after 0.001 seconds.
    ✔ Test adds() passed after 0.001 seconds.
    ✘ Test failsToo() failed after 0.001 seconds with 1 issue.
    ✔ Test param(x:) with 2 test cases passed after 0.001 seconds.
    ✘ Suite AddSuite failed after 0.001 seconds with 1 issue.
    ✘ Test run with 5 tests in 1 suite failed after 0.002 seconds with 1 issue.
    """#

  /// `out-swift-testing.xml`, written next to `out.xml`.
  static let swiftTestingXunit = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites>
      <testsuite name="TestResults" errors="0" tests="4" failures="1" skipped="1" time="0.002252414">
        <testcase classname="STests.AddSuite" name="adds()" time="0.00128502" />
        <testcase classname="STests.AddSuite" name="param(x:)" time="0.001174502" />
        <testcase classname="STests.AddSuite" name="failsToo()" time="0.001199239" >
          <failure message="Expectation failed: (add(1, 2) &#8594; 3) == 4 (error): bad &lt;sum&gt;" />
        </testcase>
        <testcase classname="STests.AddSuite" name="disabled()" >
          <skipped>later</skipped>
        </testcase>
        <testcase classname="STests" name="freeFunction()" time="0.001176776" />
      </testsuite>
    </testsuites>
    """#

  /// `swift test list --skip-build`.
  static let listing = #"""
    XTests.MathTests/testAdd
    XTests.MathTests/testFails
    XTests.MathTests/testSkipped
    STests.AddSuite/adds()
    STests.AddSuite/disabled()
    STests.AddSuite/failsToo()
    STests.AddSuite/param(x:)
    STests.freeFunction()
    """#

  /// XCTest console lines as printed on macOS (module-qualified, Objective-C style).
  static let macOSXCTest = #"""
    Test Case '-[XTests.MathTests testAdd]' started.
    Test Case '-[XTests.MathTests testAdd]' passed (0.002 seconds).
    /Users/me/pkg/Tests/XTests/XTests.swift:5: error: -[XTests.MathTests testFails] : XCTAssertEqual failed: ("3") is not equal to ("4")
    Test Case '-[XTests.MathTests testFails]' failed (0.010 seconds).
    """#

  /// A failed `swift build` (compiler diagnostics go to standard output).
  static let buildFailure = #"""
    Building for debugging...
    [0/3] Write sources
    /tmp/pkg/Sources/Lib/Lib.swift:1:52: error: cannot find 'c' in scope
    1 | public func add(_ a: Int, _ b: Int) -> Int { a + b + c }
      |                                                    `- error: cannot find 'c' in scope
    error: fatalError
    """#
}
