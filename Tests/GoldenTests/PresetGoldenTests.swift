import FluidGradient
import FluidGradientIO
import FluidGradientTesting
import Testing

/// Every built-in preset at two instants, 160×90, against goldens beside this file.
/// An unintended change to how frames look fails here; to accept an intended one,
/// run `FLUIDGRADIENT_RECORD=1 ./run test`, look at the new goldens and commit them.
@Suite struct PresetGoldenTests {
    @Test(arguments: PresetLibrary.names)
    func presetMatchesItsGoldens(name: String) throws {
        let preset = try PresetLibrary.builtIn(name)
        for time in [0.0, 2.5] {
            let frame = Golden.render(preset, at: time, width: 160, height: 90)
            Golden.assertMatches(frame, named: "\(name)-\(time == 0 ? "start" : "2.5s")")
        }
    }
}
