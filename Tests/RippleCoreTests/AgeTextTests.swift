import RippleCore
import Testing

@Suite struct AgeTextTests {
  @Test func eachSpanInTheLargestWholeUnit() {
    #expect(AgeText.short(-5) == "0s", "a clock behind reads as now")
    #expect(AgeText.short(59) == "59s")
    #expect(AgeText.short(60) == "1m")
    #expect(AgeText.short(7199) == "1h")
    #expect(AgeText.short(86400 * 3 + 5) == "3d")
  }
}
