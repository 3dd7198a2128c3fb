import { useEffect, useId, type ReactNode } from 'react';

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  /** the × button; absent means the dialog closes only through its own buttons */
  onClose?: () => void;
  /** buttons placed in the header, right of the title */
  headerActions?: ReactNode;
  footer?: ReactNode;
  testId?: string;
  width?: number;
  className?: string;
}

/** A centred dialog over a dimmed page. Clicking outside never closes it (core-platform.md §2.6). */
export function Modal({ title, children, onClose, headerActions, footer, testId, width = 420, className }: ModalProps) {
  const titleId = useId();
  useEffect(() => {
    if (!onClose) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-mask">
      <div
        className={`modal ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        style={{ width: `min(${width}px, 100%)` }}
      >
        <div className="modal__header">
          <h2 className="modal__title" id={titleId}>
            {title}
          </h2>
          <div className="modal__actions">
            {headerActions}
            {onClose && (
              <button type="button" className="modal__close" aria-label="关闭" onClick={onClose}>
                ×
              </button>
            )}
          </div>
        </div>
        <div className="modal__body">{children}</div>
        {footer && <div className="modal__footer">{footer}</div>}
      </div>
    </div>
  );
}
