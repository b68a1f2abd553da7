// libFuzzer target: report-url (Fuzz/Properties, FuzzTarget.reportURL). Built and run by Scripts/fuzz.
import FuzzProperties

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    LibFuzzerEntry.initialize(.reportURL)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LibFuzzerEntry.run(.reportURL, data, size)
}
