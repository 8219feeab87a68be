/*
 * mb_suite.c — the standard suite order (docs/workloads.md), as data.
 */
#include "mb_suite.h"

#include <stddef.h>

#define WARM(w)		{MB_SUITE_WARMUP, w, NULL, MB_CLASS_READ}
#define PRE(w)		{MB_SUITE_RUN, w, "pre", MB_CLASS_READ}
#define WRITE(w)	{MB_SUITE_RUN, w, "post", MB_CLASS_WRITE}
#define POST(w)		{MB_SUITE_RUN, w, "post", MB_CLASS_READ}
#define LAST(w)		{MB_SUITE_RUN, w, "post", MB_CLASS_INSERT}

const mb_suite_step mb_suite_steps[] = {
	/* 1. warm-up after the load */
	WARM("point-query"),
	WARM("scan"),
	/* 2. reads right after the load */
	PRE("point-query"),
	PRE("random-points_range=10"),
	PRE("random-points_range=100"),
	PRE("random-points_range=1000"),
	PRE("read-only_range=10"),
	PRE("read-only_range=100"),
	PRE("read-only_range=10000"),
	PRE("points-covered-pk"),
	PRE("points-covered-si"),
	PRE("points-notcovered-pk"),
	PRE("points-notcovered-si"),
	PRE("range-covered-pk"),
	PRE("range-covered-si"),
	PRE("range-notcovered-pk"),
	PRE("range-notcovered-si"),
	/* 3. writes */
	WRITE("update-inlist"),
	WRITE("update-index"),
	WRITE("update-nonindex"),
	WRITE("update-one"),
	WRITE("update-zipf"),
	WRITE("write-only"),
	WRITE("read-write_range=10"),
	WRITE("read-write_range=100"),
	/* 4. post-write maintenance */
	{MB_SUITE_MAINTENANCE, NULL, NULL, MB_CLASS_READ},
	/* 5. reads after the writes changed the table */
	POST("scan"),
	POST("read-only_range=10"),
	POST("read-only_range=100"),
	POST("read-only_range=10000"),
	POST("read-only-simple"),
	POST("read-only-sum"),
	POST("read-only-order"),
	POST("read-only-distinct"),
	POST("read-only-count"),
	POST("point-query"),
	POST("random-points_range=10"),
	POST("random-points_range=100"),
	POST("random-points_range=1000"),
	POST("hot-points"),
	POST("points-covered-pk"),
	POST("points-covered-si"),
	POST("points-notcovered-pk"),
	POST("points-notcovered-si"),
	POST("range-covered-pk"),
	POST("range-covered-si"),
	POST("range-notcovered-pk"),
	POST("range-notcovered-si"),
	/* 6. they change the row count, so they go last */
	LAST("delete"),
	LAST("insert"),
};

const int	mb_suite_num_steps = sizeof(mb_suite_steps) / sizeof(mb_suite_steps[0]);

const char *
mb_suite_kind_name(mb_suite_kind kind)
{
	switch (kind)
	{
		case MB_SUITE_WARMUP:
			return "warmup";
		case MB_SUITE_RUN:
			return "run";
		case MB_SUITE_MAINTENANCE:
			return "maintenance";
	}
	return NULL;
}

const char *
mb_suite_class_name(mb_suite_class c)
{
	switch (c)
	{
		case MB_CLASS_READ:
			return "read";
		case MB_CLASS_WRITE:
			return "write";
		case MB_CLASS_INSERT:
			return "insert";
	}
	return NULL;
}
