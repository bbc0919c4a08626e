"""SQLAlchemy models of the platform's Postgres tables."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, func
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class Document(Base):
    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    body: Mapped[str] = mapped_column(Text)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime, server_default=func.now())


class SavedSearch(Base):
    __tablename__ = "saved_searches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, index=True)
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), nullable=True)
    query: Mapped[str] = mapped_column(String(500))


def purge_deleted(session: Session) -> int:
    """Session.get/delete/execute share names with Redis commands and have nothing to do with them."""
    removed = 0
    for doc in session.scalars(Document.__table__.select().where(Document.deleted.is_(True))):
        row = session.get(Document, doc.id)
        if row is not None:
            session.delete(row)
            removed += 1
    session.execute(SavedSearch.__table__.delete().where(SavedSearch.document_id.is_(None)))
    session.commit()
    return removed
