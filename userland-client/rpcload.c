/*
 * rpcload.c - main: subcommand dispatch, usage errors, exit statuses.
 *
 *   rpcload null|echo|sleep [OPTIONS]   one call (single.c)
 *   rpcload load [OPTIONS]              load generator (load.c, report.c)
 *   rpcload bad [OPTIONS]               malformed input (bad.c)
 */
#include "bad.h"
#include "cli.h"
#include "help.h"
#include "load.h"
#include "report.h"
#include "single.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define RPCLOAD_VERSION "1.0"

static int usage_error(const char *msg)
{
	fprintf(stderr, "rpcload: %s\n", msg);
	return 2;
}

static int run_load(int argc, char **argv)
{
	struct load_opts o;
	struct load_result r;
	char err[300];

	switch (cli_parse_load(argc, argv, &o, err, sizeof(err))) {
	case CLI_HELP:
		fputs(help_text("load"), stdout);
		return 0;
	case CLI_ERROR:
		return usage_error(err);
	case CLI_OK:
		break;
	}
	if (load_run(&o, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: load: %s\n", err);
		return 1;
	}
	if (o.json) {
		if (report_load_json(stdout, &o, &r) < 0) {
			fprintf(stderr, "rpcload: load: cannot build the JSON document\n");
			return 1;
		}
	} else {
		report_load_table(stdout, &o, &r);
	}
	fflush(stdout);
	if (r.failures || r.timeouts || r.mismatches || r.ok == 0)
		return 1;
	return 0;
}

static int run_single(int argc, char **argv)
{
	struct single_opts o;
	char err[300];

	switch (cli_parse_single(argc, argv, &o, err, sizeof(err))) {
	case CLI_HELP:
		fputs(help_text(argv[0]), stdout);
		return 0;
	case CLI_ERROR:
		return usage_error(err);
	case CLI_OK:
		break;
	}
	return single_run(&o);
}

static int run_bad(int argc, char **argv)
{
	struct bad_opts o;
	char err[300];

	switch (cli_parse_bad(argc, argv, &o, err, sizeof(err))) {
	case CLI_HELP:
		fputs(help_text("bad"), stdout);
		return 0;
	case CLI_ERROR:
		return usage_error(err);
	case CLI_OK:
		break;
	}
	return bad_run(&o);
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
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("rpcload %s (JSON document version 1)\n", RPCLOAD_VERSION);
		return 0;
	}
	if (strcmp(cmd, "null") == 0 || strcmp(cmd, "echo") == 0 ||
	    strcmp(cmd, "sleep") == 0)
		return run_single(argc - 1, argv + 1);
	if (strcmp(cmd, "load") == 0)
		return run_load(argc - 1, argv + 1);
	if (strcmp(cmd, "bad") == 0)
		return run_bad(argc - 1, argv + 1);
	if (cmd[0] == '-')
		snprintf(msg, sizeof(msg),
			 "unknown option '%.64s' before the command (try 'rpcload --help')",
			 cmd);
	else
		snprintf(msg, sizeof(msg),
			 "unknown command '%.64s' (try 'rpcload --help')", cmd);
	return usage_error(msg);
}
