// libFuzzer target: device-auth (Fuzz/Properties, FuzzTarget.deviceAuth). Built and run by Scripts/fuzz.
import FuzzProperties

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    LibFuzzerEntry.initialize(.deviceAuth)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LibFuzzerEntry.run(.deviceAuth, data, size)
}
