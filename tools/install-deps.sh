#!/bin/sh
# Installs what building and testing Octuple needs on Debian or Ubuntu.
set -eu
packages="build-essential autoconf automake autoconf-archive pkg-config check libsubunit-dev
libedit-dev zlib1g-dev groff-base"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $packages
