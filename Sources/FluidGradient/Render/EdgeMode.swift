import Foundation

/// What the blur sees beyond the frame (DESIGN section 5).
public enum EdgeMode: String, CaseIterable, Sendable {
    /// The blobs continue beyond the frame, as on an endless canvas: no fading at the borders.
    case bleed
    /// Outside the frame is transparent, as in the original SwiftUI view: borders fade
    /// towards the background.
    case transparent
    /// Edge pixels repeat outwards.
    case clamp
}
