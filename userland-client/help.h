/* SPDX-License-Identifier: GPL-2.0 */
/*
 * help.h - rpcload's help texts.
 */
#ifndef RPCLOAD_HELP_H
#define RPCLOAD_HELP_H

/* The --help text of a subcommand ("null", "echo", "sleep", "load",
 * "bad", "slices"), or of rpcload itself for NULL; NULL for an unknown
 * name. */
const char *help_text(const char *sub);

#endif
