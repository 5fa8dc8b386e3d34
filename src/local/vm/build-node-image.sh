#!/bin/bash
# Builds the local node image for QEMU machines from Debian packages (debootstrap, as root) plus the kubelet and
# containerd the local environment builds: a kernel, its initrd and a raw ext4 disk in
# ~/.cache/hcp-kubevirt/node-image/<Kubernetes version>/. It meets the node image contract (docs/node-image.md):
# systemd, containerd 2 (enabled by the served config, not before it is written), runc, /usr/bin/kubelet,
# and a first-boot agent (guest/hcp-ignition-agent) that applies the Ignition config the config drive leads to. No CNI
# plugin or configuration: the hosted cluster's network plugin installs both into /opt/cni/bin and /etc/cni/net.d. The
# image's containerd pulls through the environment's registry (10.250.0.1:5000), as the process machines do.
# The machine's network comes from the kernel command line (`ip=`, read by systemd-network-generator) when the
# stand-in gives the guest its launcher pod's address; DHCP otherwise (a stand-alone boot behind user-mode NAT).
# Besides, node.qcow2: the same system as a whole bootable disk (an MBR with SYSLINUX, a FAT boot partition holding the
# kernel and initrd, the ext4 root), compressed: what the KubeVirt container disk of a release carries (hcp release
# build). It is built before the local registry mirrors are added, so it names no registry of this machine.
# `hcp local up --machine-backend vm` runs this; the image is rebuilt when this script or the guest files change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=${KUBE_VERSION:-v1.36.3}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/hcp-kubevirt
# hcp local up names the exact binaries and folder; by hand, the newest ones in the cache.
images=${HCP_NODE_IMAGE_DIR:-$cache/node-image/$version}
kubelet=${HCP_KUBELET:-$cache/kube/$version/kubelet}
containerd_dir=${HCP_CONTAINERD_DIR:-$(ls -d "$cache"/tools/containerd-v* | tail -1)}
[ -x "$kubelet" ] && [ -x "$containerd_dir/containerd" ] || { echo "build the local environment first (hcp local up): kubelet or containerd missing" >&2; exit 1; }
for tool in debootstrap mkfs.ext4 mkfs.fat mcopy syslinux sfdisk qemu-img; do
  command -v "$tool" > /dev/null || { echo "missing $tool (apt-get install debootstrap e2fsprogs dosfstools mtools syslinux syslinux-common fdisk qemu-utils)" >&2; exit 1; }
done
mbr=/usr/lib/syslinux/mbr/mbr.bin
[ -f "$mbr" ] || { echo "missing $mbr (apt-get install syslinux-common)" >&2; exit 1; }
# Each build goes to a folder named by what it was built from, and `current` points at the newest: a rebuild never
# changes the disk under the copy-on-write layers of machines (hcp local up prunes the builds no machine uses).
stamp=$(cat "$0" "$here"/guest/* "$kubelet" "$containerd_dir/containerd" "$containerd_dir/ctr" | sha256sum | cut -c1-16)
out=$images/$stamp
rm -f "$images/vmlinuz" "$images/initrd.img" "$images/disk.raw" "$images/stamp" # the layout before `current`
if [ -f "$out/disk.raw" ] && [ -f "$out/node.qcow2" ]; then ln -sfn "$stamp" "$images/current"; echo "$out (cached)"; exit 0; fi
rm -rf "$out"

work=$(mktemp -d /var/tmp/hcp-node-image.XXXXXX)
trap 'umount "$work/rootfs/proc" 2> /dev/null || true; rm -rf "$work"' EXIT
root=$work/rootfs
packages=systemd-sysv,udev,iproute2,iptables,ca-certificates,curl,jq,kmod,conntrack,ethtool,linux-image-cloud-amd64,runc
debootstrap --variant=minbase --include=$packages bookworm "$root" http://deb.debian.org/debian

# The build host's resolver means nothing in a machine: the kernel command line gives one (see the agent).
: > "$root/etc/resolv.conf"
install -m 0755 "$kubelet" "$root/usr/bin/kubelet"
install -m 0755 "$containerd_dir/containerd" "$containerd_dir/containerd-shim-runc-v2" "$containerd_dir/ctr" "$root/usr/bin/"
mkdir -p "$root/opt/cni/bin" "$root/etc/cni/net.d"
install -m 0755 "$here/guest/hcp-ignition-agent" "$root/usr/local/bin/"
install -m 0644 "$here/guest/containerd.service" "$here/guest/hcp-ignition.service" "$root/etc/systemd/system/"
mkdir -p "$root/etc/systemd/network"
# DHCP when the kernel command line gives no address (a stand-alone boot); systemd-network-generator writes 90-<nic>.network,
# which sorts first and so wins when it does.
printf '[Match]\nName=en* eth*\n[Network]\nDHCP=ipv4\n' > "$root/etc/systemd/network/99-dhcp.network"
# The serial console is all one sees of a machine: warnings and errors of every unit go there too.
mkdir -p "$root/etc/systemd/journald.conf.d"
printf '[Journal]\nForwardToConsole=yes\nMaxLevelConsole=warning\n' > "$root/etc/systemd/journald.conf.d/90-console.conf"
chroot "$root" systemctl enable systemd-networkd systemd-networkd-wait-online systemd-network-generator hcp-ignition.service
mkdir -p "$out"
cp "$root"/boot/vmlinuz-* "$out/vmlinuz"
cp "$root"/boot/initrd.img-* "$out/initrd.img"
# The bootable disk: partition 1 (FAT, active) holds SYSLINUX, the kernel and the initrd; partition 2 is the root file
# system, found by its label. Every piece is made as a file and written into place, so nothing is mounted.
boot_mib=64 root_size=3G
mkfs.ext4 -q -L root -d "$root" "$work/root.ext4" "$root_size"
mkfs.fat -n BOOT -C "$work/boot.fat" $((boot_mib * 1024)) > /dev/null
printf 'DEFAULT node\nPROMPT 0\nTIMEOUT 0\nLABEL node\n  KERNEL /vmlinuz\n  INITRD /initrd.img\n  APPEND root=LABEL=root rw console=ttyS0 net.ifnames=0\n' > "$work/syslinux.cfg"
mcopy -i "$work/boot.fat" "$out/vmlinuz" "$out/initrd.img" "$work/syslinux.cfg" ::/
syslinux --install "$work/boot.fat"
root_mib=$(( $(stat -c %s "$work/root.ext4") / 1048576 ))
truncate -s $(( (1 + boot_mib + root_mib) * 1048576 )) "$work/disk.img"
printf 'label: dos\nstart=1MiB, size=%sMiB, type=c, bootable\nstart=%sMiB, type=83\n' "$boot_mib" $((1 + boot_mib)) | sfdisk -q "$work/disk.img"
dd if="$mbr" of="$work/disk.img" bs=440 count=1 conv=notrunc status=none
dd if="$work/boot.fat" of="$work/disk.img" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$work/root.ext4" of="$work/disk.img" bs=1M seek=$((1 + boot_mib)) conv=notrunc,sparse status=none
rm -f "$work/root.ext4" "$work/boot.fat"
qemu-img convert -q -c -O qcow2 "$work/disk.img" "$out/node.qcow2.partial"
rm -f "$work/disk.img"
mv "$out/node.qcow2.partial" "$out/node.qcow2"

# What follows is for this machine's QEMU machines only: they pull through the environment's registry.
for registry in registry.k8s.io quay.io docker.io; do
  upstream=https://$registry; [ "$registry" = docker.io ] && upstream=https://registry-1.docker.io
  mkdir -p "$root/etc/containerd/certs.d/$registry"
  printf 'server = "%s"\n\n[host."http://10.250.0.1:5000/v2/%s"]\n  capabilities = ["pull", "resolve"]\n  override_path = true\n' "$upstream" "$registry" > "$root/etc/containerd/certs.d/$registry/hosts.toml"
done
mkfs.ext4 -q -L root -d "$root" "$out/disk.raw.partial" 3G
mv "$out/disk.raw.partial" "$out/disk.raw"
# Older builds stay: machines' disks are layers over them. hcp local up prunes those no machine uses.
ln -sfn "$stamp" "$images/current"
echo "$out"
