extension TLSSession {
    /// The Cast messages the bytes received so far make, read through `decoder` (which keeps
    /// a partial frame for next time), and the failure that stopped the reading, if one did
    /// (a TLS error, a frame that cannot be read): the messages before it still count (a status,
    /// then garbage). TLS's own records to send (a key update, an alert) wait in
    /// ``takeOutgoing()``.
    func readMessages(into decoder: inout CastFrameDecoder) -> (messages: [CastMessage], failure: CastChannelError?) {
        var messages: [CastMessage] = []
        do throws(CastChannelError) {
            while case let plaintext = try read(), !plaintext.isEmpty {
                decoder.append(plaintext)
                while let message = try decoder.next() { messages.append(message) }
            }
        } catch {
            return (messages, error)
        }
        return (messages, nil)
    }

    /// `message` as a frame, encrypted: the bytes to send.
    func seal(_ message: CastMessage) throws(CastChannelError) -> [UInt8] {
        try send(try CastFrameDecoder.frame(message))
        return takeOutgoing()
    }
}
