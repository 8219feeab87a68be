/*
 * rep_forms.c — a program for test_callgrind.c to run under callgrind: each
 * REP string instruction form (rep stosb, rep stosq, rep movsb) with 0, 1, 8
 * and 4,096 repetitions, and a plain loop of 8, each in a function of its
 * own written in assembly, so that the instructions a CPU runs in one call
 * are known exactly: five for each REP function (mov, lea, lea or xor, the
 * REP instruction, ret), 35 for the loop.  With an argument it runs them
 * as a counted window does: collecting (callgrind's client request) only
 * around three calls of each, and twice as many calls between them
 * uncollected, whose jumps callgrind counts all the same.  x86-64 only.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>

/* the destination (4,096 quadwords) and a source (4,096 bytes) */
char		rep_forms_dst[32768];
char		rep_forms_src[4096];

#define REP_FUNCTION(name, count, setup, insn) \
	__asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n" \
			"\tmov $" #count ",%ecx\n" \
			"\tlea rep_forms_dst(%rip),%rdi\n" \
			"\t" setup "\n" \
			"\t" insn "\n" \
			"\tret\n.size " #name ",.-" #name "\n")

#define REP_FORM(form, setup, insn) \
	REP_FUNCTION(form##_0, 0, setup, insn); \
	REP_FUNCTION(form##_1, 1, setup, insn); \
	REP_FUNCTION(form##_8, 8, setup, insn); \
	REP_FUNCTION(form##_4096, 4096, setup, insn); \
	extern void form##_0(void), form##_1(void), form##_8(void), form##_4096(void)

REP_FORM(stosb, "xor %eax,%eax", "rep stosb");
REP_FORM(stosq, "xor %eax,%eax", "rep stosq");
REP_FORM(movsb, "lea rep_forms_src(%rip),%rsi", "rep movsb");

/* eight bytes zeroed one at a time: 3 + 4 x 8 instructions, no REP */
__asm__(".text\n.globl plain_loop\n.type plain_loop,@function\nplain_loop:\n"
		"\tmov $8,%ecx\n"
		"\tlea rep_forms_dst(%rip),%rdi\n"
		"1:\tmovb $0,(%rdi)\n"
		"\tinc %rdi\n"
		"\tdec %rcx\n"
		"\tjnz 1b\n"
		"\tret\n.size plain_loop,.-plain_loop\n");
extern void plain_loop(void);

/* each function once */
static void
call_each(void)
{
	stosb_0();
	stosb_1();
	stosb_8();
	stosb_4096();
	stosq_0();
	stosq_1();
	stosq_8();
	stosq_4096();
	movsb_0();
	movsb_1();
	movsb_8();
	movsb_4096();
	plain_loop();
}

int
main(int argc, char **argv)
{
	bool		window = argc > 1;
	int			i;

	(void) argv;
	/* three calls each collected, so that a count per call is a count, not a coincidence */
	for (i = 0; i < 3; i++)
	{
		if (window)
			CALLGRIND_TOGGLE_COLLECT;
		call_each();
		if (window)
		{
			CALLGRIND_TOGGLE_COLLECT;
			call_each();
			call_each();
		}
	}
	return EXIT_SUCCESS;
}
