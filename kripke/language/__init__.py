"""The language: formulas, their parser and printer, and what may name an agent."""
