// Scrt1.o of glibc 2.34 and later calls __libc_start_main@GLIBC_2.34; the
// link (make probe) sends that call here, with --wrap, and this calls the
// version every glibc has. Older glibc runs the program's constructors only
// through init, which newer crt1 no longer passes, so init runs them here,
// as __libc_csu_init of libc_nonshared.a did. Glibc 2.34 and later run init
// instead of their own walk when it is given, so each runs once.
#if defined(__x86_64__) || defined(__aarch64__)
#include "compat.h"

typedef void (*p2p_ctor)(int, char **, char **);
extern p2p_ctor __preinit_array_start[] __attribute__((weak));
extern p2p_ctor __preinit_array_end[] __attribute__((weak));
extern p2p_ctor __init_array_start[] __attribute__((weak));
extern p2p_ctor __init_array_end[] __attribute__((weak));
extern void _init(void) __attribute__((weak));

static void p2p_init(int argc, char **argv, char **env) {
	for (p2p_ctor *f = __preinit_array_start; f < __preinit_array_end; f++) (*f)(argc, argv, env);
	if (_init) _init();
	for (p2p_ctor *f = __init_array_start; f < __init_array_end; f++) (*f)(argc, argv, env);
}

int p2p_libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
	void (*init)(void), void (*fini)(void), void (*rtld_fini)(void), void *stack_end);
__asm__(".symver p2p_libc_start_main,__libc_start_main@" P2P_GLIBC_OLD);

int __wrap___libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
	void (*init)(void), void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
	(void)init;
	return p2p_libc_start_main(main, argc, argv, (void (*)(void))p2p_init, fini, rtld_fini, stack_end);
}
#endif
