/// The process exit statuses of `cast-scan`.
///
/// The values follow BSD `sysexits.h` where one applies, so scripts can tell a mistyped command
/// line from a missing daemon from a bug.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success: the command did what was asked.
    case ok = 0

    /// The scan completed but found no devices, and `--fail-if-empty` was given; or a receiver
    /// `status` asked did not answer with its status.
    ///
    /// A listing never returns it without that flag: an empty network is otherwise a
    /// successful scan.
    case noDevices = 1

    /// A check (`plist check`, `advise`) found at least one error-severity finding, or a
    /// `simulate` expectation failed. Warnings and notes alone are ``ok``.
    case checkFailed = 2

    /// The command line was wrong: unknown option, missing or invalid value, unexpected
    /// argument (`EX_USAGE`). A one-line `UsageError` message is printed to standard error.
    case usage = 64

    /// An input file given on the command line (a replay file, a device list, an Info.plist)
    /// could not be read or is malformed (`EX_DATAERR`).
    case dataError = 65

    /// A service the command needs is unavailable, typically avahi-daemon is not running or
    /// cannot be reached over D-Bus; or a one-shot listing has no network interface with
    /// multicast up to ask on (`EX_UNAVAILABLE`): `doctor` fails the same check.
    case unavailable = 69

    /// An internal error: a state the tool should never reach (`EX_SOFTWARE`).
    case software = 70

    /// A file the tool was asked to write (the sender's `--state` file) is not a regular file
    /// (a device, FIFO, socket or directory, or a link to one): it was refused and left
    /// untouched (`EX_CANTCREAT`).
    case cannotCreate = 73

    /// Writing standard output failed: a full disk, a closed descriptor, an I/O error
    /// (`EX_IOERR`). A reader that went away (a closed pipe) is not an error: the command ends
    /// quietly with the status it had.
    case ioError = 74
    /// `report send` could not deliver every stored event: the rest stay in the spool for the
    /// next try (`EX_TEMPFAIL`).
    case eventsRemain = 75
    /// A configuration file the command was given does not read, or asks for what it cannot
    /// do (`serve --web-config`: `EX_CONFIG`); `serve --check-config` says so without serving.
    case configuration = 78
    /// Interrupted by `SIGINT` (Ctrl-C) before it was done: 128 + 2, as shells report it.
    /// `watch` is the exception: a signal is how it is meant to end, so it exits 0.
    case interrupted = 130
    /// Ended by `SIGTERM` before it was done: 128 + 15.
    case terminated = 143
}
