# lab-name.sh: a lab's name and what follows from it, for Scripts/castlab and the scripts that
# use a lab. Source it; it sets
#   CASTLAB_NAME     the lab's name: $CASTLAB_NAME, default castlab (lower-case letters, digits
#                    and inner dashes, at most 32 bytes)
#   CASTLAB_PREFIX   its namespaces' prefix, NAME- (castlab-sender, castlab-hub, ...)
#   CASTLAB_STATE    its state directory: $CASTLAB_STATE if set, else /run/NAME (exported)
# and castlab_namespaces, which lists this lab's namespaces that exist (never another lab's,
# even one whose name starts with this one's: the names are matched whole).
# Labs of different names share nothing: each has its own namespaces (so its own interfaces,
# addresses, bridge and nftables tables), state directory, D-Bus sockets and daemons.
# Returns 1 (after saying why) when CASTLAB_NAME is not a valid name.
CASTLAB_NAME=${CASTLAB_NAME:-castlab}
if ! [[ "$CASTLAB_NAME" =~ ^[a-z]([a-z0-9-]{0,30}[a-z0-9])?$ ]]; then
  echo "castlab: CASTLAB_NAME must be lower-case letters, digits and inner dashes, at most 32 bytes (got '$CASTLAB_NAME')" >&2
  return 1
fi
CASTLAB_PREFIX=$CASTLAB_NAME-
export CASTLAB_NAME CASTLAB_STATE=${CASTLAB_STATE:-/run/$CASTLAB_NAME}

# The namespaces a lab makes: Scripts/castlab's and labctl.py's (device stems dev, avahi, v6only).
castlab_namespaces() {
  ip netns list 2>/dev/null | awk '{print $1}' |
    grep -E "^${CASTLAB_PREFIX}(sender|hub|hostile|publisher|(dev|avahi|v6only)[0-9]+)\$" || true
}
