#!/bin/bash
# Boots one QEMU machine from the local node image (src/local/vm/build-node-image.sh), by hand, outside the stand-in, as a KubeVirt VM would boot: the disk (a
# copy-on-write layer over the image), KubeVirt's config drive (label config-2: user data and the VM's name), one
# NIC behind user-mode NAT (as KubeVirt's masquerade binding). TCG, because this host's KVM does not boot stock
# kernels (shared/reference/local-environment.md). Prints the seconds from start to the agent fetching its config, to
# the config applied, and — given the hosted cluster's kubeconfig — to the Node Ready; then stops the machine and
# removes its files.
#   boot.sh NAME USER_DATA_FILE [HOSTED_KUBECONFIG]
set -euo pipefail
name=$1 user_data=$2 hosted=${3:-}
images=${XDG_CACHE_HOME:-$HOME/.cache}/hcp-kubevirt/node-image/${KUBE_VERSION:-v1.36.3}
image=$(realpath "$images/current" 2> /dev/null || true)
[ -n "$image" ] && [ -f "$image/disk.raw" ] || { echo "no node image in $images: run src/local/vm/build-node-image.sh (or hcp local up --machine-backend vm)" >&2; exit 1; }
work=$(mktemp -d /var/tmp/hcp-vm.XXXXXX)
qemu=
cleanup() { [ -n "$qemu" ] && kill "$qemu" 2> /dev/null; wait 2> /dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/drive/openstack/latest"
cp "$user_data" "$work/drive/openstack/latest/user_data"
printf '{"uuid":"%s","name":"%s","hostname":"%s"}\n' "$(cat /proc/sys/kernel/random/uuid)" "$name" "$name" > "$work/drive/openstack/latest/meta_data.json"
genisoimage -quiet -o "$work/config-drive.iso" -V config-2 -J -R "$work/drive"
qemu-img create -q -f qcow2 -F raw -b "$image/disk.raw" "$work/disk.qcow2"
start=$(date +%s.%N)
elapsed() { echo "$(date +%s.%N) - $start" | bc | xargs printf '%.1f'; }
qemu-system-x86_64 -accel tcg -m "${MEMORY_MIB:-2048}" -smp "${CPUS:-2}" -display none -monitor none -no-reboot \
  -kernel "$image/vmlinuz" -initrd "$image/initrd.img" -append "root=/dev/vda rw console=ttyS0 quiet" \
  -drive "file=$work/disk.qcow2,if=virtio,format=qcow2" -drive "file=$work/config-drive.iso,if=virtio,format=raw,readonly=on" \
  -netdev user,id=pod -device virtio-net-pci,netdev=pod,romfile= -serial "file:$work/console.log" &
qemu=$!
await() { # what, pattern in the console, timeout in seconds
  for _ in $(seq 1 "$3"); do grep -q "$2" "$work/console.log" 2> /dev/null && { echo "$name: $1 after $(elapsed) s"; return 0; }; sleep 1; done
  echo "$name: $1 not within $3 s; console:" >&2; tail -20 "$work/console.log" >&2; return 1
}
await 'the agent fetching its config' 'hcp-ignition-agent: fetching' 300
await 'the config applied (containerd and kubelet enabled)' 'hcp-ignition-agent: applied' 600
if [ -n "$hosted" ]; then
  for _ in $(seq 1 900); do
    [ "$(kubectl --kubeconfig "$hosted" get node "$name" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2> /dev/null)" = True ] && { echo "$name: Node Ready after $(elapsed) s"; exit 0; }
    sleep 1
  done
  echo "$name: Node not Ready within 15 minutes; console:" >&2; tail -30 "$work/console.log" >&2; exit 1
fi
