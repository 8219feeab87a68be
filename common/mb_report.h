/*
 * mb_report.h — the text both drivers print while a run is going on.
 *
 * Progress lines follow sysbench's --report-interval layout so users read
 * them without thinking; keeping the format here means the extension's
 * NOTICEs and the client's stdout lines are the same text.
 */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stddef.h>

typedef struct mb_interval_figures
{
	double		elapsed_s;		/* since the measured window began */
	int			threads;
	double		tps;
	double		qps;
	double		p95_ms;
	double		errors_per_s;
} mb_interval_figures;

/* "[ 10s ] thds: 1 tps: 123.45 qps: 123.45 lat (ms,95%): 0.12 err/s: 0.00" */
extern int	mb_report_interval_line(char *buf, size_t buflen,
									const mb_interval_figures *f);

#endif							/* MB_REPORT_H */
