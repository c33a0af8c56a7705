import { mount } from '../shared/mount.tsx';
import { DocsPage } from './DocsPage.tsx';
import './docs.css';

mount(<DocsPage />);
