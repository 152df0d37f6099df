// SPDX-License-Identifier: GPL-2.0
/*
 * A production module's entry points: start the service when the module
 * loads, stop it when it unloads (svc_server.c does both).  Kbuild links
 * this file into every build; a test module links its own entry points
 * in its place.
 */
#include <linux/init.h>
#include <linux/module.h>

#include "svcsock.h"

static int __init svcsock_init(void)
{
	return svcsock_start(NULL);
}

static void __exit svcsock_exit(void)
{
	svcsock_stop();
}

module_init(svcsock_init);
module_exit(svcsock_exit);
