import TestSupport

/// The reducer driver every state test uses (from TestSupport, shared with the view's tests).
typealias Harness = StateDriver

let projectExtensions = StateDriver.projectExtensions
