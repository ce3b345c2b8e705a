"""Symbolic models: knowledge structures on BDDs (CUDD through dd), their checker, deals, and
translation to and from explicit models."""
