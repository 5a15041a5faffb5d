// SPDX-License-Identifier: GPL-2.0
// lupe-cflags: -O2 -g -fno-omit-frame-pointer
/*
 * cxx-dispatch: V8's string dispatch (node's v8::internal::StringShape),
 * cut down: a template function whose template arguments are local
 * classes of other template functions. At -O2 gcc 12 clones it
 * (.isra.0), and the clone's parameters cannot be demangled (c++filt
 * gives up on the whole name; c++filt -p, the name alone, does not), as
 * for 155 of node's symbols. Nearly every sample lands in the clone.
 *
 *   main -> String::GetImpl -> DispatchToSpecificTypeWithoutCast<...CastingDispatcher...> [clone .isra.0]
 *        -> StringGetDispatcher::HandleSeq (inlined)
 *
 * Usage: cxx-dispatch [N] (default 2000000 steps, 50 times)
 */
#include <cstdio>
#include <cstdlib>
#include <utility>
namespace v8i {
class String;
struct Guard { int x; };
struct Cage { long b; };
class StringShape {
public:
	template <typename TDispatcher, typename TResult, typename... TArgs>
	static TResult DispatchToSpecificTypeWithoutCast(TArgs &&...args);
	template <typename TDispatcher, typename TResult, typename... TArgs>
	static TResult DispatchToSpecificType(String s, TArgs &&...args);
};
class String {
public:
	unsigned long v;
	unsigned short GetImpl(int index, Cage cage, const Guard &g) const;
};
template <typename TDispatcher, typename TResult, typename... TArgs>
__attribute__((noinline)) TResult StringShape::DispatchToSpecificTypeWithoutCast(TArgs &&...args)
{
	return TDispatcher::HandleSeq(std::forward<TArgs>(args)...);
}
template <typename TDispatcher, typename TResult, typename... TArgs>
TResult StringShape::DispatchToSpecificType(String s, TArgs &&...args)
{
	struct CastingDispatcher {
		static TResult HandleSeq(String &s, TArgs &&...args)
		{
			return TDispatcher::HandleSeq(s, std::forward<TArgs>(args)...);
		}
	};
	return DispatchToSpecificTypeWithoutCast<CastingDispatcher, TResult>(s, std::forward<TArgs>(args)...);
}
__attribute__((noinline)) unsigned short String::GetImpl(int index, Cage cage, const Guard &g) const
{
	struct StringGetDispatcher {
		static unsigned short HandleSeq(String s, int &index, Cage &cage, const Guard &g)
		{
			volatile unsigned long acc = s.v;
			for (long k = 0; k < cage.b; k++)
				acc += k ^ (acc >> 3) ^ index ^ g.x;
			return (unsigned short)acc;
		}
	};
	return StringShape::DispatchToSpecificType<StringGetDispatcher, unsigned short>(*this, index, cage, g);
}
} // namespace v8i
int main(int argc, char **argv)
{
	v8i::String s{ 1 };
	v8i::Guard g{ 2 };
	v8i::Cage c{ argc > 1 ? atol(argv[1]) : 2000000 };
	unsigned long r = 0;
	for (int i = 0; i < 50; i++)
		r += s.GetImpl(i, c, g);
	printf("%lu\n", r & 1);
}
