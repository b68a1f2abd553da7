/// Numbers written out the way the tool prints them: fixed decimals and hexadecimal bytes.
enum NumberText {
    /// `value` with exactly `digits` decimals (0 to 15), as `printf("%.*f")` writes it, rounded
    /// to the nearest (a tie to even) from the value's exact binary form (`fixed(1.125, digits: 2)`
    /// is `1.12`, `fixed(1.015, digits: 2)` is `1.01` because 1.015 is stored a little below).
    /// A value too large for that, or not finite, is written as Swift writes it.
    static func fixed(_ value: Double, digits: Int) -> String {
        let digits = min(max(0, digits), 15)
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let magnitude = value.magnitude
        let product = magnitude * scale
        guard product.isFinite, product < 1e15 else { return "\(value)" }
        // product + residual is magnitude * scale exactly; the residual settles a tie that
        // only the rounded product shows.
        let residual = (-product).addingProduct(magnitude, scale)
        var units = product.rounded(.toNearestOrEven)
        if product - product.rounded(.down) == 0.5, residual != 0 {
            units = residual > 0 ? product.rounded(.up) : product.rounded(.down)
        }
        let whole = UInt64(units), divisor = UInt64(scale)
        let sign = value.sign == .minus ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fraction = String(whole % divisor)
        return sign + String(whole / divisor) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
