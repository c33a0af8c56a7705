import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import './base.css';

export function mount(node: ReactNode): void {
  createRoot(document.getElementById('root')!).render(<StrictMode>{node}</StrictMode>);
}
