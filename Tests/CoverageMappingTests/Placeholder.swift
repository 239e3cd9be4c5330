import Testing
@testable import CoverageMapping
