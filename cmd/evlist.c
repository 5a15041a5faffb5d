// SPDX-License-Identifier: GPL-2.0
int cmd_evlist(int argc, char **argv);
int cmd_evlist(int argc, char **argv) { return argc && argv ? 0 : 1; }
