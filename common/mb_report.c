/*
 * mb_report.c — progress line formatting shared by the drivers.
 */
#include "mb_report.h"

#include <stdio.h>

int
mb_report_interval_line(char *buf, size_t buflen, const mb_interval_figures *f)
{
	return snprintf(buf, buflen,
					"[ %.0fs ] thds: %d tps: %.2f qps: %.2f lat (ms,95%%): %.2f err/s: %.2f",
					f->elapsed_s, f->threads, f->tps, f->qps, f->p95_ms,
					f->errors_per_s);
}
