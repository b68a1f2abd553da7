import CastScanCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The whole tool lives in CastScanCLI; this only hands it the process and exits. The console
// comes first, before anything opens a file (see Console.standard).
let environment = CastScan.processEnvironment()
let console = Console.standard(environment: environment)
let status = await CastScan.run(arguments: CastScan.processArguments(), environment: environment, console: console)
exit(status.rawValue)
