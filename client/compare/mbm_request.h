/*
 * mbm_request.h — microbench compare's request and its checks
 * (mbm_request.c); a refusal writes nothing.
 */
#ifndef MBM_REQUEST_H
#define MBM_REQUEST_H

/* The options into rq, every check made; a refusal exits 2. */
extern void mbm_request_parse(int argc, char **argv);
/* The settings of a build of DBMS dbms labelled label ("\n"-separated), or NULL. */
extern char *mbm_request_settings(const char *dbms, const char *label);

#endif							/* MBM_REQUEST_H */
