#!/bin/bash
# Network and Disk (docs/widgets/network-disk.md): CPU (user+sys ticks) of the host and its
# workers over 60 s: the network and disk widgets placed (5 s / 5 min reloads), or the bundle
# installed and nothing placed. Needs `swift build` first (the debug host and
# libNetworkDiskWidgets.so); takes two minutes.
wt="$(cd "$(dirname "$0")/.." && pwd)"
hz=$(getconf CLK_TCK)
for variant in placed unplaced; do
  d=$(mktemp -d /tmp/netdisk-cost-XXXX)
  mkdir -p $d/Plugins
  cp $wt/.build/debug/libNetworkDiskWidgets.so $d/Plugins/netdisk.so
  if [ $variant = placed ]; then w='[{"kind": "network", "family": "accessoryInline"}, {"kind": "disk", "family": "accessoryInline"}]'; else w='[]'; fi
  cat > $d/config.json <<J
{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": $w,
 "bundles": {"org.widgethost.netdisk": {"limits": {"reloadBudget": 20000}}}}
J
  $wt/.build/debug/widgethost run --config $d/config.json --stdout none > $d/out.log 2> $d/err.log &
  host=$!
  sleep 60
  total=0; n=0
  for p in $(ps -eo pid=); do
    if [ "$p" = "$host" ] || grep -qa "$d" /proc/$p/cmdline 2>/dev/null; then
      t=$(awk '{print $14+$15+$16+$17}' /proc/$p/stat 2>/dev/null); total=$((total + ${t:-0})); n=$((n+1))
    fi
  done
  echo "$variant: $n processes, CPU $(echo "scale=2; $total / $hz" | bc) s in 60 s (ticks of $hz Hz, children reaped included)"
  kill -INT $host; wait $host
  rm -rf $d
done
