// SPDX-License-Identifier: GPL-2.0
/*
 * rpcload.c - main: subcommand dispatch, usage errors, exit statuses.
 *
 *   rpcload null|echo|sleep [OPTIONS]   one call (single.c)
 *   rpcload load [OPTIONS]              load generator (load.c, report.c)
 *   rpcload bad [OPTIONS]               malformed input: the conformance
 *                                       suite (../conformance, bad_run)
 *   rpcload slices [OPTIONS]            load moved between targets in
 *                                       slices (slices.c, slices_report.c)
 */
#include "bad.h" /* the conformance suite (../conformance) */
#include "cli.h"
#include "help.h"
#include "load.h"
#include "report.h"
#include "single.h"
#include "slices.h"
#include "slices_report.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RPCLOAD_VERSION "1.1"

static int usage_error(const char *msg)
{
	fprintf(stderr, "rpcload: %s\n", msg);
	return 2;
}

static int version(void)
{
	printf("rpcload %s (JSON document version 1)\n", RPCLOAD_VERSION);
	return 0;
}

/* After parsing: the exit status for --help, --version or a usage
 * error, or -1 to run the command. */
static int parsed(enum cli_status st, const char *sub, const char *err)
{
	switch (st) {
	case CLI_HELP:
		fputs(help_text(sub), stdout);
		return 0;
	case CLI_VERSION:
		return version();
	case CLI_ERROR:
		return usage_error(err);
	case CLI_OK:
		break;
	}
	return -1;
}

/* parsed() for a command with --json: then a usage error is a JSON
 * document too (as iperf3's), even one met before --json was read. */
static int parsed_json(enum cli_status st, const char *sub, const char *err,
		       bool json, int argc, char **argv)
{
	if (st == CLI_ERROR && (json || cli_wants_json(argc, argv)))
		report_error_json(stdout, err);
	return parsed(st, sub, err);
}

static int run_load(int argc, char **argv)
{
	struct load_opts o;
	struct lg_result *r;
	char err[300];
	enum cli_status st = cli_parse_load(argc, argv, &o, err, sizeof(err));
	int rc;

	if ((rc = parsed_json(st, "load", err, o.json, argc, argv)) >= 0)
		return rc;
	r = malloc(sizeof(*r)); /* two histograms: not on the stack */
	if (!r) {
		fprintf(stderr, "rpcload: out of memory\n");
		return 1;
	}
	if (load_run(&o, r, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: load: %s\n", err);
		if (o.json)
			report_load_json(stdout, &o, NULL, err);
		free(r);
		return 1;
	}
	rc = lg_all_ok(r) ? 0 : 1;
	if (!o.json) {
		report_load_table(stdout, &o, r);
	} else if (report_load_json(stdout, &o, r, NULL) < 0) {
		fprintf(stderr, "rpcload: load: cannot build the JSON document\n");
		rc = 1;
	}
	fflush(stdout);
	free(r);
	return rc;
}

static int run_slices(int argc, char **argv)
{
	struct slices_opts o;
	struct slices_result res;
	char err[300], why[600];
	const char *e;
	enum cli_status st = cli_parse_slices(argc, argv, &o, err, sizeof(err));
	int rc;

	if ((rc = parsed_json(st, "slices", err, o.json, argc, argv)) >= 0)
		return rc;
	if (slices_run(&o, &res, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: slices: %s\n", err);
		if (o.json)
			slices_json(stdout, &o, &res, err);
		slices_free(&res);
		return 1;
	}
	e = slices_error(&o, &res, why, sizeof(why));
	rc = e ? 1 : 0;
	if (!o.json) {
		slices_table(stdout, &o, &res);
	} else if (slices_json(stdout, &o, &res, NULL) < 0) {
		fprintf(stderr, "rpcload: slices: cannot build the JSON document\n");
		rc = 1;
	}
	fflush(stdout);
	if (e)
		fprintf(stderr, "rpcload: slices: %s\n", e);
	slices_free(&res);
	return rc;
}

static int run_single(int argc, char **argv)
{
	struct single_opts o;
	char err[300];
	int rc = parsed(cli_parse_single(argc, argv, &o, err, sizeof(err)),
			argv[0], err);

	return rc >= 0 ? rc : single_run(&o);
}

static int run_bad(int argc, char **argv)
{
	struct bad_opts o;
	char err[300];
	int rc = parsed(cli_parse_bad(argc, argv, &o, err, sizeof(err)), "bad",
			err);

	return rc >= 0 ? rc : bad_run(&o);
}

int main(int argc, char **argv)
{
	char msg[300];
	const char *cmd;

	/* libtirpc and raw sockets write to peers that may have gone. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage_error("missing command (try 'rpcload --help')");
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "help") == 0) {
		if (argc > 2 && help_text(argv[2]))
			fputs(help_text(argv[2]), stdout);
		else
			fputs(help_text(NULL), stdout);
		return 0;
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0)
		return version();
	if (strcmp(cmd, "null") == 0 || strcmp(cmd, "echo") == 0 ||
	    strcmp(cmd, "sleep") == 0)
		return run_single(argc - 1, argv + 1);
	if (strcmp(cmd, "load") == 0)
		return run_load(argc - 1, argv + 1);
	if (strcmp(cmd, "bad") == 0)
		return run_bad(argc - 1, argv + 1);
	if (strcmp(cmd, "slices") == 0)
		return run_slices(argc - 1, argv + 1);
	if (cmd[0] == '-')
		snprintf(msg, sizeof(msg),
			 "unknown option '%.64s' before the command (try 'rpcload --help')",
			 cmd);
	else
		snprintf(msg, sizeof(msg),
			 "unknown command '%.64s' (try 'rpcload --help')", cmd);
	return usage_error(msg);
}
