import CastScanCLI
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The whole tool lives in CastScanCLI; this only hands it the process, and the system's clock
// of the time of day, and exits. The console comes first, before anything opens a file (see
// Console.standard).
let environment = CastScan.processEnvironment()
let console = Console.standard(environment: environment)
let status = await CastScan.run(
    arguments: CastScan.processArguments(), environment: environment, console: console, wallClock: { Date() })
exit(status.rawValue)
