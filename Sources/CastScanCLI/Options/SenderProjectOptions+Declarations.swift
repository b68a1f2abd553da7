extension SenderProjectOptions {
    /// The app's iOS version: the simulated sender's, and the project's deployment target.
    static let ios = OptionDeclaration.value(
        "ios", valueName: "VERSION",
        help: "simulate an iOS sender at this version (default: a Linux sender, no permission)")
    static let sdk = OptionDeclaration.value(
        "sdk", valueName: "VERSION", help: "Cast SDK version of the sender (default 4.8.3)")
    static let xcode = OptionDeclaration.value(
        "xcode", valueName: "VERSION", help: "Xcode version the app is built with")
    static let noBluetoothVariant = OptionDeclaration.flag(
        "no-bluetooth-variant",
        help: "the app uses google-cast-sdk-no-bluetooth")
}
