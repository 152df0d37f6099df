#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs/vm-run reports what happened in the guest: the command's exit
# status, a timeout, a panic and kernel badness each by their own code.
. "$(dirname "$0")/lib.sh"
relay "vm-run: " initramfs/selftest
done_testing
