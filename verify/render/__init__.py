"""Readable renderings of an audit: Markdown, a self-contained HTML page, a LaTeX document.

Every renderer reads the same JSON report (`verify.audit.report.to_json`) for statuses and
evidence, and the audit's steps for their formulas (`formulas`); everything taken from a
proof file (titles, notes, sources) is escaped for the target format, since proof files
come from strangers.
"""
