# SPDX-License-Identifier: GPL-2.0
# program.mk: how the Makefiles of the user-space parts built on libsvcrpc
# and rpcgen's output for protocol/svcsock.x begin (userland-client/,
# refserver/, conformance/): the tools, where the library and the
# generated code are, and the flags that may not be overridden.  Each
# includes it as ../libsvcrpc/program.mk (they all sit one level below
# the top of the tree), then adds its own preprocessor flags and rules.

CC      ?= cc
PKG_CONFIG ?= pkg-config
BUILD   := build
LIBDIR  := ../libsvcrpc
LIB     := $(LIBDIR)/build/libsvcrpc.a
PROTDIR := ../protocol
PROT    := $(PROTDIR)/build/libsvcsock_prot.a

# CFLAGS (optimisation, debug) may be overridden; the rest may not.
CFLAGS   ?= -O2 -g
ALL_CFLAGS   := -std=c11 -Wall -Wextra -Werror -pthread $(CFLAGS)
ALL_LDFLAGS  := -pthread $(LDFLAGS)
