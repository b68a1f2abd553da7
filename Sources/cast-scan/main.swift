import CastScanCLI
import Foundation

// The whole tool lives in CastScanCLI; this only hands it the process's arguments and exits.
let status = await CastScan.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    console: .standard(environment: ProcessInfo.processInfo.environment))
exit(status.rawValue)
