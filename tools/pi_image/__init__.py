"""The box as a system: an arm64 Debian 13 root, a flashable SD image, and a booted trial.

tools/build-image and tools/pi-boot are thin command lines over this package:

- `debian`: builds (and caches, outside the checkout) an arm64 trixie root from Debian's
  packages with debootstrap, qemu-user-static and proot, in layers. No binfmt handler is
  registered and nothing is mounted on the host. `shell`: the build's timed steps, logged
  commands, host tools and cache lock.
- `card`, `card_setup`: what makes the image a maker's card (network, SSH, settings on the
  boot partition; the device-tree overlays the card compiles itself).
- `layout`: turns that root into partitions and a disk image without mounting anything or
  using loop devices (mke2fs -d, mkfs.vfat + mcopy, sfdisk on the image file, dd conv=notrunc).
- `vm`: the image under qemu-system-aarch64 -M virt, spoken to over a serial line and a
  virtio console; `boot`: tools/pi-boot's checks on it; `check`: the image read back.

Standard library only, like tools/install.py: it runs with the distribution's python3.
"""
