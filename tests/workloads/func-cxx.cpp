// SPDX-License-Identifier: GPL-2.0
/*
 * func-cxx: C++ methods for lupe stat --func by demangled name and glob:
 * Matrix::mul is called -n N times (default 50), Matrix::add 2N times.
 */
#include <cstdlib>
#include <unistd.h>

class Matrix {
public:
	explicit Matrix(int n) : n_(n), v_(new double[n * n]())
	{
		for (int i = 0; i < n * n; i++)
			v_[i] = i % 7;
	}
	~Matrix() { delete[] v_; }
	void mul(const Matrix &o);
	void add(const Matrix &o);
	double at(int i) const { return v_[i]; }

private:
	int n_;
	double *v_;
};

__attribute__((noinline)) void Matrix::mul(const Matrix &o)
{
	double *r = new double[n_ * n_]();

	for (int i = 0; i < n_; i++)
		for (int k = 0; k < n_; k++)
			for (int j = 0; j < n_; j++)
				r[i * n_ + j] += v_[i * n_ + k] * o.v_[k * n_ + j];
	delete[] v_;
	v_ = r;
}

__attribute__((noinline)) void Matrix::add(const Matrix &o)
{
	for (int i = 0; i < n_ * n_; i++)
		v_[i] += o.v_[i];
}

int main(int argc, char **argv)
{
	int n = 50, c;
	Matrix a(32), b(32);

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c == 'n')
			n = atoi(optarg);
		else
			return 2;
	}
	for (int i = 0; i < n; i++) {
		a.mul(b);
		a.add(b);
		a.add(b);
	}
	return a.at(0) < 0;
}
